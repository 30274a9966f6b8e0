// The Role strategy: namespaced rules (no non-resource URLs); nothing is server-set.
import type { Role } from '../../api';
import { roles } from '../../api';
import type { Strategy } from '../strategy';
import { createRulesOnUpdate, validatePolicyRules, validateRBACName } from './validation';
import { roleTableColumns } from './tableColumns';

export const roleStrategy: Strategy<Role> = {
  tableColumns: roleTableColumns,
  resource: roles,
  validateName: validateRBACName,
  prepareForCreate() {},
  validate(_ctx, obj) {
    return validatePolicyRules(obj.rules, true);
  },
  prepareForUpdate() {},
  validateUpdate(_ctx, obj) {
    return createRulesOnUpdate(validatePolicyRules(obj.rules, true));
  },
  allowUnconditionalUpdate: true,
  allowCreateOnUpdate: true,
  selectableFields(obj) {
    return { 'metadata.name': obj.metadata?.name ?? '', 'metadata.namespace': obj.metadata?.namespace ?? '' };
  },
  subresourceStrategies: {},
  // Upstream's store leaves ReturnDeletedObject unset: DELETE answers with a Success Status.
  deleteReturnsObject: false,
};
