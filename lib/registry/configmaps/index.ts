// Public surface of the ConfigMap registry.
export { configMapStrategy } from './strategy';
export { configMapTotalSizeLimit, validateConfigMap, validateConfigMapUpdate } from './validation';
