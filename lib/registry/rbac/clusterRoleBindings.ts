// The ClusterRoleBinding strategy: a ClusterRole reference that never changes, and subjects
// (ServiceAccounts must say their namespace) whose apiGroup is defaulted by kind.
import type { ClusterRoleBinding } from '../../api';
import { clusterrolebindings } from '../../api';
import type { FieldError } from '../../machinery/fieldErrors';
import type { Strategy } from '../strategy';
import {
  applyBindingDefaults,
  createRulesOnUpdate,
  roleKinds,
  validateRBACName,
  validateRoleRef,
  validateRoleRefUnchanged,
  validateSubjects,
} from './validation';
import { clusterRoleBindingTableColumns } from './tableColumns';

const allowedRoleKinds = [roleKinds.clusterRole];

function validateClusterRoleBinding(binding: ClusterRoleBinding): FieldError[] {
  return [...validateRoleRef(binding.roleRef, allowedRoleKinds), ...validateSubjects(binding.subjects, false)];
}

export const clusterRoleBindingStrategy: Strategy<ClusterRoleBinding> = {
  tableColumns: clusterRoleBindingTableColumns,
  resource: clusterrolebindings,
  validateName: validateRBACName,
  applyDefaults: applyBindingDefaults,
  prepareForCreate() {},
  validate(_ctx, obj) {
    return validateClusterRoleBinding(obj);
  },
  prepareForUpdate() {},
  validateUpdate(_ctx, obj, old) {
    return [...createRulesOnUpdate(validateClusterRoleBinding(obj)), ...validateRoleRefUnchanged(obj.roleRef, old.roleRef)];
  },
  allowUnconditionalUpdate: true,
  allowCreateOnUpdate: true,
  selectableFields(obj) {
    return { 'metadata.name': obj.metadata?.name ?? '' };
  },
  subresourceStrategies: {},
  deleteReturnsObject: false,
};
