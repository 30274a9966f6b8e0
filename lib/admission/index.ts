// Public surface of lib/admission: the validating plugins and the chain that runs them.
export { validatingChain } from './attributes';
export type { AdmissionAttributes, ValidatingPlugin } from './attributes';
export { namespaceLifecycle } from './namespaceLifecycle';
export type { NamespaceLifecycleInput, NamespaceLookup } from './namespaceLifecycle';
export { certificateApproval } from './certificateApproval';
export { certificateSigning } from './certificateSigning';
export { certificateSubjectRestriction } from './certificateSubjectRestriction';
export { isAuthorizedForSignerName } from './signerAuthorization';
export { rbacEscalation } from './rbacEscalation';
export { PolicySet, validatingAdmissionPolicy, validationFailureAnnotation } from './policy';
export type { ParamKind, PolicyCheck, PolicyPluginDeps } from './policy';
export { PolicyStatusController, policyStatusControllerName, typeCheckPolicy } from './policy';
export type { ExpressionWarning, GroupVersionKind, KindResolver, PolicyStatusDeps } from './policy';
