// Public surface of ValidatingAdmissionPolicy evaluation.
export { validatingAdmissionPolicy, validationFailureAnnotation } from './plugin';
export type { ParamKind, PolicyCheck, PolicyPluginDeps } from './deps';
export { PolicySet } from './policySet';
export { compilePolicy } from './compiled';
export { PolicyStatusController, policyStatusControllerName } from './statusController';
export type { PolicyStatusDeps } from './statusController';
export { typeCheckPolicy } from './typeChecking';
export type { ExpressionWarning, GroupVersionKind, KindResolver } from './typeChecking';
