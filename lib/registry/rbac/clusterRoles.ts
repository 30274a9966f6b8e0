// The ClusterRole strategy: cluster-wide rules (non-resource URLs allowed) and the optional
// aggregationRule, whose selectors are label-selector validated.
import type { ClusterRole } from '../../api';
import { clusterroles } from '../../api';
import type { FieldError } from '../../machinery/fieldErrors';
import type { Strategy } from '../strategy';
import {
  aggregationRuleHasInvalidSelector,
  createRulesOnUpdate,
  validateAggregationRule,
  validatePolicyRules,
  validateRBACName,
} from './validation';
import { roleTableColumns } from './tableColumns';

function validateClusterRole(role: ClusterRole, allowInvalidLabelValueInSelector: boolean): FieldError[] {
  return [...validatePolicyRules(role.rules, false), ...validateAggregationRule(role.aggregationRule, allowInvalidLabelValueInSelector)];
}

export const clusterRoleStrategy: Strategy<ClusterRole> = {
  tableColumns: roleTableColumns,
  resource: clusterroles,
  validateName: validateRBACName,
  prepareForCreate() {},
  validate(_ctx, obj) {
    return validateClusterRole(obj, false);
  },
  prepareForUpdate() {},
  validateUpdate(_ctx, obj, old) {
    // A stored selector that already fails validation keeps the object updatable (values only).
    return createRulesOnUpdate(validateClusterRole(obj, aggregationRuleHasInvalidSelector(old.aggregationRule)));
  },
  allowUnconditionalUpdate: true,
  allowCreateOnUpdate: true,
  selectableFields(obj) {
    return { 'metadata.name': obj.metadata?.name ?? '' };
  },
  subresourceStrategies: {},
  deleteReturnsObject: false,
};
