// The ValidatingAdmissionPolicy strategy (upstream pkg/registry/admissionregistration/
// validatingadmissionpolicy): status is reset on create and kept by the main endpoint, /status
// keeps the spec; generation follows the spec. The v1beta1 strategy is the same over the
// v1beta1 ResourceInfo (one storage location, apiVersion set on every read).
import type { ValidatingAdmissionPolicy } from '../../api';
import { validatingadmissionpolicies, validatingadmissionpoliciesV1beta1 } from '../../api';
import { policyTableColumns } from './tableColumns';
import type { FieldError } from '../../machinery/fieldErrors';
import { DefaultStrategy } from '../defaultStrategy';
import type { RequestContext, UpdateStrategy } from '../strategy';
import { bumpGenerationOnSpecChange, keepSpecAndGeneration, startGeneration } from '../specGeneration';
import { defaultMatchResources } from './matchResourcesValidation';
import { validatePolicy, validatePolicyStatus } from './policyValidation';

type Policy = ValidatingAdmissionPolicy;

/** Upstream's SetDefaults_ValidatingAdmissionPolicySpec (failurePolicy Fail) and MatchResources defaults. */
function applyPolicyDefaults(obj: Policy): void {
  if (!obj.spec) return;
  obj.spec.failurePolicy ??= 'Fail';
  defaultMatchResources(obj.spec.matchConstraints);
}

const statusStrategy: UpdateStrategy<Policy> = {
  resetFields: [['spec'], ['metadata']],
  prepareForUpdate(_ctx, obj, old) {
    keepSpecAndGeneration(obj, old);
  },
  validateUpdate(_ctx, obj) {
    return validatePolicyStatus(obj);
  },
};

class ValidatingAdmissionPolicyStrategy extends DefaultStrategy<Policy> {
  readonly resource = validatingadmissionpolicies;
  override readonly tableColumns = policyTableColumns;
  override readonly subresourceStrategies = { status: statusStrategy };
  override readonly resetFields = [['status']];

  override applyDefaults(obj: Policy): void {
    applyPolicyDefaults(obj);
  }
  override prepareForCreate(_ctx: RequestContext, obj: Policy): void {
    obj.status = {};
    startGeneration(obj);
  }
  override validate(_ctx: RequestContext, obj: Policy): FieldError[] {
    return validatePolicy(obj);
  }
  override prepareForUpdate(_ctx: RequestContext, obj: Policy, old: Policy): void {
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
    bumpGenerationOnSpecChange(obj, old);
  }
  override validateUpdate(_ctx: RequestContext, obj: Policy): FieldError[] {
    return validatePolicy(obj);
  }
}

export const validatingAdmissionPolicyStrategy = new ValidatingAdmissionPolicyStrategy();
export const validatingAdmissionPolicyV1beta1Strategy = validatingAdmissionPolicyStrategy.withResource(validatingadmissionpoliciesV1beta1);
