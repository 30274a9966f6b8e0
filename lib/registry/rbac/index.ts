// Public surface of the RBAC registry (Role, ClusterRole, RoleBinding, ClusterRoleBinding).
export { roleStrategy } from './roles';
export { clusterRoleStrategy } from './clusterRoles';
export { roleBindingStrategy } from './roleBindings';
export { clusterRoleBindingStrategy } from './clusterRoleBindings';
export {
  applyBindingDefaults,
  validatePolicyRule,
  validateRBACName,
  validateRoleRef,
  validateSubject,
  roleKinds,
  subjectKinds,
} from './validation';
