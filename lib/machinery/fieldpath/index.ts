export * from './pathElement';
export * from './fieldSet';
export * from './fieldsV1';
export * from './fieldSetOf';
export * from './compare';
export { nodeKind, listItemElement, rootField } from './schemaWalk';
export { mergeObjects, removeItems, withNamedParents } from './merge';
export { typedValidationErrors, typedValidationText, TypedValueError } from './validateTyped';
export type { TypedValidationError } from './validateTyped';
