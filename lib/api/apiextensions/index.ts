export * from './jsonSchemaProps';
export * from './customResourceDefinition';
export * from './conditions';
