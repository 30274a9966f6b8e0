// The RoleBinding strategy: a Role or ClusterRole reference that never changes, and subjects
// whose apiGroup is defaulted by kind.
import type { RoleBinding } from '../../api';
import { rolebindings } from '../../api';
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
import { roleBindingTableColumns } from './tableColumns';

const allowedRoleKinds = [roleKinds.role, roleKinds.clusterRole];

function validateRoleBinding(binding: RoleBinding): FieldError[] {
  return [...validateRoleRef(binding.roleRef, allowedRoleKinds), ...validateSubjects(binding.subjects, true)];
}

export const roleBindingStrategy: Strategy<RoleBinding> = {
  tableColumns: roleBindingTableColumns,
  resource: rolebindings,
  validateName: validateRBACName,
  applyDefaults: applyBindingDefaults,
  prepareForCreate() {},
  validate(_ctx, obj) {
    return validateRoleBinding(obj);
  },
  prepareForUpdate() {},
  validateUpdate(_ctx, obj, old) {
    return [...createRulesOnUpdate(validateRoleBinding(obj)), ...validateRoleRefUnchanged(obj.roleRef, old.roleRef)];
  },
  allowUnconditionalUpdate: true,
  allowCreateOnUpdate: true,
  selectableFields(obj) {
    return { 'metadata.name': obj.metadata?.name ?? '', 'metadata.namespace': obj.metadata?.namespace ?? '' };
  },
  subresourceStrategies: {},
  deleteReturnsObject: false,
};
