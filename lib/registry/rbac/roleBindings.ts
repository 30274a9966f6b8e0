// The RoleBinding strategy: a Role or ClusterRole reference (immutable: the schema's marker), and
// subjects whose apiGroup is defaulted by kind.
import type { RoleBinding } from '../../api';
import { rolebindings } from '../../api';
import type { FieldError } from '../../machinery/fieldErrors';
import { DefaultStrategy } from '../defaultStrategy';
import type { RequestContext } from '../strategy';
import { applyBindingDefaults, createRulesOnUpdate, roleKinds, validateRBACName, validateRoleRef, validateSubjects } from './validation';
import { roleBindingTableColumns } from './tableColumns';

const allowedRoleKinds = [roleKinds.role, roleKinds.clusterRole];

function validateRoleBinding(binding: RoleBinding): FieldError[] {
  return [...validateRoleRef(binding.roleRef, allowedRoleKinds), ...validateSubjects(binding.subjects, true)];
}

class RoleBindingStrategy extends DefaultStrategy<RoleBinding> {
  readonly resource = rolebindings;
  override readonly tableColumns = roleBindingTableColumns;
  override readonly allowCreateOnUpdate = true;
  override validateName(name: string, prefix: boolean): string[] {
    return validateRBACName(name, prefix);
  }
  override applyDefaults(obj: RoleBinding): void {
    applyBindingDefaults(obj);
  }
  override validate(_ctx: RequestContext, obj: RoleBinding): FieldError[] {
    return validateRoleBinding(obj);
  }
  override validateUpdate(_ctx: RequestContext, obj: RoleBinding, _old: RoleBinding): FieldError[] {
    return createRulesOnUpdate(validateRoleBinding(obj));
  }
}

export const roleBindingStrategy = new RoleBindingStrategy();
