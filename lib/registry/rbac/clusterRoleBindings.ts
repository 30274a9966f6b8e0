// The ClusterRoleBinding strategy: a ClusterRole reference (immutable: the schema's marker), and
// subjects (ServiceAccounts must say their namespace) whose apiGroup is defaulted by kind.
import type { ClusterRoleBinding } from '../../api';
import { clusterrolebindings } from '../../api';
import type { FieldError } from '../../machinery/fieldErrors';
import { DefaultStrategy } from '../defaultStrategy';
import type { RequestContext } from '../strategy';
import { applyBindingDefaults, createRulesOnUpdate, roleKinds, validateRBACName, validateRoleRef, validateSubjects } from './validation';
import { clusterRoleBindingTableColumns } from './tableColumns';

const allowedRoleKinds = [roleKinds.clusterRole];

function validateClusterRoleBinding(binding: ClusterRoleBinding): FieldError[] {
  return [...validateRoleRef(binding.roleRef, allowedRoleKinds), ...validateSubjects(binding.subjects, false)];
}

class ClusterRoleBindingStrategy extends DefaultStrategy<ClusterRoleBinding> {
  readonly resource = clusterrolebindings;
  override readonly tableColumns = clusterRoleBindingTableColumns;
  override readonly allowCreateOnUpdate = true;
  override validateName(name: string, prefix: boolean): string[] {
    return validateRBACName(name, prefix);
  }
  override applyDefaults(obj: ClusterRoleBinding): void {
    applyBindingDefaults(obj);
  }
  override validate(_ctx: RequestContext, obj: ClusterRoleBinding): FieldError[] {
    return validateClusterRoleBinding(obj);
  }
  override validateUpdate(_ctx: RequestContext, obj: ClusterRoleBinding, _old: ClusterRoleBinding): FieldError[] {
    return createRulesOnUpdate(validateClusterRoleBinding(obj));
  }
}

export const clusterRoleBindingStrategy = new ClusterRoleBindingStrategy();
