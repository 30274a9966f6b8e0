// Public surface of ValidatingAdmissionPolicy evaluation.
export { validatingAdmissionPolicy, validationFailureAnnotation } from './plugin';
export type { ParamKind, PolicyCheck, PolicyPluginDeps } from './plugin';
export { PolicySet } from './policySet';
export { compilePolicy } from './compiled';
