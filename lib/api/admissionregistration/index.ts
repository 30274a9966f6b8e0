export * from './matchResources';
export * from './validatingAdmissionPolicy';
export * from './validatingAdmissionPolicyBinding';
