export * from './profiles';
export * from './selection';
