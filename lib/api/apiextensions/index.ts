export * from './jsonSchemaProps';
export * from './customResourceDefinition';
