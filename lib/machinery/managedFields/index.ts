export * from './managed';
export * from './recordUpdate';
export * from './apply';
