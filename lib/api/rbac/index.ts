export * from './rules';
export * from './roles';
export * from './bindings';
