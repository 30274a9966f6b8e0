// The ValidatingAdmissionPolicyBinding strategy (upstream pkg/registry/admissionregistration/
// validatingadmissionpolicybinding): generation follows the spec; v1beta1 served by the same rules.
import type { ValidatingAdmissionPolicyBinding } from '../../api';
import { validatingadmissionpolicybindings, validatingadmissionpolicybindingsV1beta1 } from '../../api';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { bindingTableColumns } from './tableColumns';
import type { Strategy } from '../strategy';
import { validateBinding } from './bindingValidation';
import { bumpGenerationOnSpecChange, startGeneration } from './generation';
import { defaultMatchResources } from './matchResourcesValidation';

type Binding = ValidatingAdmissionPolicyBinding;

/** Upstream's SetDefaults_ParamRef (parameterNotFoundAction Deny) and MatchResources defaults. */
function applyBindingDefaults(obj: Binding): void {
  if (!obj.spec) return;
  if (obj.spec.paramRef) obj.spec.paramRef.parameterNotFoundAction ??= 'Deny';
  defaultMatchResources(obj.spec.matchResources);
}

export const validatingAdmissionPolicyBindingStrategy: Strategy<Binding> = {
  resource: validatingadmissionpolicybindings,
  validateName: nameIsDNSSubdomain,
  applyDefaults: applyBindingDefaults,
  prepareForCreate(_ctx, obj) {
    startGeneration(obj);
  },
  validate(_ctx, obj) {
    return validateBinding(obj);
  },
  prepareForUpdate(_ctx, obj, old) {
    bumpGenerationOnSpecChange(obj, old);
  },
  validateUpdate(_ctx, obj) {
    return validateBinding(obj);
  },
  allowUnconditionalUpdate: true,
  selectableFields(obj) {
    return { 'metadata.name': obj.metadata?.name ?? '' };
  },
  subresourceStrategies: {},
  deleteReturnsObject: false,
  tableColumns: bindingTableColumns,
};

export const validatingAdmissionPolicyBindingV1beta1Strategy: Strategy<Binding> = { ...validatingAdmissionPolicyBindingStrategy, resource: validatingadmissionpolicybindingsV1beta1 };
