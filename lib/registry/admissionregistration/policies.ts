// The ValidatingAdmissionPolicy strategy (upstream pkg/registry/admissionregistration/
// validatingadmissionpolicy): status is reset on create and kept by the main endpoint, /status
// keeps the spec; generation follows the spec. The v1beta1 strategy is the same over the
// v1beta1 ResourceInfo (one storage location, apiVersion set on every read).
import type { ValidatingAdmissionPolicy } from '../../api';
import { validatingadmissionpolicies, validatingadmissionpoliciesV1beta1 } from '../../api';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { policyTableColumns } from './tableColumns';
import type { Strategy, UpdateStrategy } from '../strategy';
import { bumpGenerationOnSpecChange, startGeneration } from './generation';
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
    if (old.spec === undefined) delete obj.spec;
    else obj.spec = structuredClone(old.spec);
    (obj.metadata ??= {}).generation = old.metadata?.generation;
  },
  validateUpdate(_ctx, obj) {
    return validatePolicyStatus(obj);
  },
};

export const validatingAdmissionPolicyStrategy: Strategy<Policy> = {
  resource: validatingadmissionpolicies,
  validateName: nameIsDNSSubdomain,
  applyDefaults: applyPolicyDefaults,
  prepareForCreate(_ctx, obj) {
    obj.status = {};
    startGeneration(obj);
  },
  validate(_ctx, obj) {
    return validatePolicy(obj);
  },
  resetFields: [['status']],
  prepareForUpdate(_ctx, obj, old) {
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
    bumpGenerationOnSpecChange(obj, old);
  },
  validateUpdate(_ctx, obj) {
    return validatePolicy(obj);
  },
  allowUnconditionalUpdate: true,
  selectableFields(obj) {
    return { 'metadata.name': obj.metadata?.name ?? '' };
  },
  subresourceStrategies: { status: statusStrategy },
  deleteReturnsObject: false,
  tableColumns: policyTableColumns,
};

export const validatingAdmissionPolicyV1beta1Strategy: Strategy<Policy> = { ...validatingAdmissionPolicyStrategy, resource: validatingadmissionpoliciesV1beta1 };
