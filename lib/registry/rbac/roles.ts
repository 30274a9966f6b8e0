// The Role strategy: namespaced rules (no non-resource URLs); nothing is server-set.
import type { Role } from '../../api';
import { roles } from '../../api';
import type { FieldError } from '../../machinery/fieldErrors';
import { DefaultStrategy } from '../defaultStrategy';
import type { RequestContext } from '../strategy';
import { createRulesOnUpdate, validatePolicyRules, validateRBACName } from './validation';
import { roleTableColumns } from './tableColumns';

class RoleStrategy extends DefaultStrategy<Role> {
  readonly resource = roles;
  override readonly tableColumns = roleTableColumns;
  override readonly allowCreateOnUpdate = true;
  override validateName(name: string, prefix: boolean): string[] {
    return validateRBACName(name, prefix);
  }
  override validate(_ctx: RequestContext, obj: Role): FieldError[] {
    return validatePolicyRules(obj.rules, true);
  }
  override validateUpdate(_ctx: RequestContext, obj: Role, _old: Role): FieldError[] {
    return createRulesOnUpdate(validatePolicyRules(obj.rules, true));
  }
}

export const roleStrategy = new RoleStrategy();
