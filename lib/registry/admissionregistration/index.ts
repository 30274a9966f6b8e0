// Public surface of the admissionregistration registry.
export { validatingAdmissionPolicyStrategy, validatingAdmissionPolicyV1beta1Strategy } from './policies';
export { validatingAdmissionPolicyBindingStrategy, validatingAdmissionPolicyBindingV1beta1Strategy } from './bindings';
export { validatePolicy, validatePolicySpec } from './policyValidation';
export { validateBinding } from './bindingValidation';
