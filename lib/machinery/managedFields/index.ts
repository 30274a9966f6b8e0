export * from './managed';
export * from './recordUpdate';
