export * from './lease';
