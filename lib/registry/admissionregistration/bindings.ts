// The ValidatingAdmissionPolicyBinding strategy (upstream pkg/registry/admissionregistration/
// validatingadmissionpolicybinding): generation follows the spec; v1beta1 served by the same rules.
import type { ValidatingAdmissionPolicyBinding } from '../../api';
import { validatingadmissionpolicybindings, validatingadmissionpolicybindingsV1beta1 } from '../../api';
import { bindingTableColumns } from './tableColumns';
import type { FieldError } from '../../machinery/fieldErrors';
import { DefaultStrategy } from '../defaultStrategy';
import type { RequestContext } from '../strategy';
import { validateBinding } from './bindingValidation';
import { bumpGenerationOnSpecChange, startGeneration } from '../specGeneration';
import { defaultMatchResources } from './matchResourcesValidation';

type Binding = ValidatingAdmissionPolicyBinding;

/** Upstream's SetDefaults_ParamRef (parameterNotFoundAction Deny) and MatchResources defaults. */
function applyBindingDefaults(obj: Binding): void {
  if (!obj.spec) return;
  if (obj.spec.paramRef) obj.spec.paramRef.parameterNotFoundAction ??= 'Deny';
  defaultMatchResources(obj.spec.matchResources);
}

class ValidatingAdmissionPolicyBindingStrategy extends DefaultStrategy<Binding> {
  readonly resource = validatingadmissionpolicybindings;
  override readonly tableColumns = bindingTableColumns;

  override applyDefaults(obj: Binding): void {
    applyBindingDefaults(obj);
  }
  override prepareForCreate(_ctx: RequestContext, obj: Binding): void {
    startGeneration(obj);
  }
  override validate(_ctx: RequestContext, obj: Binding): FieldError[] {
    return validateBinding(obj);
  }
  override prepareForUpdate(_ctx: RequestContext, obj: Binding, old: Binding): void {
    bumpGenerationOnSpecChange(obj, old);
  }
  override validateUpdate(_ctx: RequestContext, obj: Binding): FieldError[] {
    return validateBinding(obj);
  }
}

export const validatingAdmissionPolicyBindingStrategy = new ValidatingAdmissionPolicyBindingStrategy();
export const validatingAdmissionPolicyBindingV1beta1Strategy = validatingAdmissionPolicyBindingStrategy.withResource(validatingadmissionpolicybindingsV1beta1);
