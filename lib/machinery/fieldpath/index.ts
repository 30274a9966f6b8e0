export * from './pathElement';
export * from './fieldSet';
export * from './fieldsV1';
export * from './fieldSetOf';
export * from './compare';
export { nodeKind, listItemElement, rootField } from './schemaWalk';
