// Public surface of lib/machinery: kind-independent object logic (errors, selectors, list
// options, continue tokens, patches, metadata validation).
export * from './errors';
export * from './fieldErrors';
export * from './validation/names';
export * from './validation/objectMeta';
export * from './jsonValue';
export * from './deepCopy';
export * from './deepEqual';
export * from './goStrconv';
export * from './goJson';
export * from './labelSelector';
export * from './fieldSelector';
export * from './continueToken';
export * from './listOptions';
export * from './jsonPatch';
export * from './mergePatch';
export * from './strategicMergePatch';
