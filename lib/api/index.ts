export * from './schema';
export * from './meta';
export * from './product';
export * from './resource';
export * from './core/namespace';
export * from './core/serviceaccount';
export * from './certificates/certificateSigningRequest';
export * from './featureGates';
