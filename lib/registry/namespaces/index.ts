// Public surface of the Namespace registry.
export { namespaceStrategy } from './strategy';
export { standardFinalizers, validateFinalizerName } from './finalizerName';
