// The ClusterRole strategy: cluster-wide rules (non-resource URLs allowed) and the optional
// aggregationRule, whose selectors are label-selector validated.
import type { ClusterRole } from '../../api';
import { clusterroles } from '../../api';
import type { FieldError } from '../../machinery/fieldErrors';
import { DefaultStrategy } from '../defaultStrategy';
import type { RequestContext } from '../strategy';
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

class ClusterRoleStrategy extends DefaultStrategy<ClusterRole> {
  readonly resource = clusterroles;
  override readonly tableColumns = roleTableColumns;
  override readonly allowCreateOnUpdate = true;
  override validateName(name: string, prefix: boolean): string[] {
    return validateRBACName(name, prefix);
  }
  override validate(_ctx: RequestContext, obj: ClusterRole): FieldError[] {
    return validateClusterRole(obj, false);
  }
  override validateUpdate(_ctx: RequestContext, obj: ClusterRole, old: ClusterRole): FieldError[] {
    // A stored selector that already fails validation keeps the object updatable (values only).
    return createRulesOnUpdate(validateClusterRole(obj, aggregationRuleHasInvalidSelector(old.aggregationRule)));
  }
}

export const clusterRoleStrategy = new ClusterRoleStrategy();
