// Public surface of ValidatingAdmissionPolicy evaluation.
export { validatingAdmissionPolicy, validationFailureAnnotation } from './plugin';
export type { ParamKind, PolicyCheck, PolicyPluginDeps } from './deps';
export { PolicySet } from './policySet';
export { compilePolicy } from './compiled';
