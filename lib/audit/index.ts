// Public surface of lib/audit: the audit policy, its evaluation, audit.svc.io/v1 events and the
// log backend. The HTTP dispatcher wires these together; this folder knows nothing of HTTP.
export * from './policy';
export * from './checker';
export * from './event';
export * from './annotations';
export * from './microTime';
export * from './managedFields';
export * from './rotatingFile';
export * from './writer';
