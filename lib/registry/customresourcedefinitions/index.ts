// Public surface of the CustomResourceDefinition registry.
export { customResourceDefinitionStrategy } from './strategy';
export { applyCrdDefaults } from './defaults';
export { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate, validateNames } from './validation';
export { isStructural, validateStructural } from './structural';
