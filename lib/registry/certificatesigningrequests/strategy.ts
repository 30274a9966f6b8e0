// The CertificateSigningRequest strategy: requester identity on create, and three update
// endpoints that each silently restore what they may not change (errors.md §5):
// main → nothing but metadata; /status → status (certificate, Failed…) but not approval;
// /approval → conditions only.
import type { CertificateSigningRequest } from '../../api';
import { certificatesigningrequests, conditionTypes } from '../../api';
import { validatePathSegmentName } from '../../machinery/validation/names';
import type { FieldError } from '../../machinery/fieldErrors';
import { DefaultStrategy } from '../defaultStrategy';
import type { RequestContext, UpdateStrategy } from '../strategy';
import { populateConditionTimestamps, preserveConditionInstances } from './conditions';
import { validateCertificateSigningRequestCreate, validateCertificateSigningRequestUpdate } from './validation';
import { csrTableColumns } from './tableColumns';

type Csr = CertificateSigningRequest;

/** obj.key = copy of old.key, or no key when old has none. */
function restore<K extends 'spec' | 'status'>(obj: Csr, old: Csr, key: K): void {
  if (old[key] === undefined) delete obj[key];
  else obj[key] = structuredClone(old[key]);
}

/**
 * The caller's identity; empty values stay omitted. What the client sent there is already gone
 * (the requester fields are serverSet in the schema).
 */
function setRequester(ctx: RequestContext, obj: Csr): void {
  const spec = (obj.spec ??= {});
  const { user } = ctx;
  if (user.name) spec.username = user.name;
  if (user.uid) spec.uid = user.uid;
  if (user.groups.length > 0) spec.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) {
    spec.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
  }
}

const statusStrategy: UpdateStrategy<Csr> = {
  resetFields: [['spec'], ['status', 'conditions']],
  prepareForUpdate(ctx, obj, old) {
    restore(obj, old, 'spec');
    // Approval belongs to /approval: keep the stored Approved/Denied entries (a changed count
    // is left in place for validation to refuse).
    preserveConditionInstances(obj, old, conditionTypes.approved);
    preserveConditionInstances(obj, old, conditionTypes.denied);
    populateConditionTimestamps(obj, old, ctx.now());
  },
  validateUpdate(_ctx, obj, old) {
    return validateCertificateSigningRequestUpdate(obj, old, 'status');
  },
};

const approvalStrategy: UpdateStrategy<Csr> = {
  resetFields: [['spec'], ['status', 'certificate']],
  prepareForUpdate(ctx, obj, old) {
    populateConditionTimestamps(obj, old, ctx.now());
    const conditions = obj.status?.conditions;
    restore(obj, old, 'spec');
    const status = structuredClone(old.status ?? {});
    if (conditions === undefined) delete status.conditions;
    else status.conditions = conditions;
    obj.status = status;
  },
  validateUpdate(_ctx, obj, old) {
    return validateCertificateSigningRequestUpdate(obj, old, 'approval');
  },
};

class CertificateSigningRequestStrategy extends DefaultStrategy<Csr> {
  readonly resource = certificatesigningrequests;
  override readonly tableColumns = csrTableColumns;
  override readonly subresourceStrategies = { status: statusStrategy, approval: approvalStrategy };
  // Upstream's csrStrategy.GetResetFields: spec and status (both restored below), so only
  // metadata is owned through the main endpoint.
  override readonly resetFields = [['spec'], ['status']];

  // Any name usable as a path segment: upstream does not care what requests are called.
  override validateName(name: string, prefix: boolean): string[] {
    return validatePathSegmentName(name, prefix);
  }
  override prepareForCreate(ctx: RequestContext, obj: Csr): void {
    setRequester(ctx, obj);
    // Nobody creates a pre-approved or pre-signed request.
    obj.status = {};
  }
  override validate(_ctx: RequestContext, obj: Csr): FieldError[] {
    return validateCertificateSigningRequestCreate(obj);
  }
  override prepareForUpdate(_ctx: RequestContext, obj: Csr, old: Csr): void {
    restore(obj, old, 'spec');
    restore(obj, old, 'status');
  }
  override validateUpdate(_ctx: RequestContext, obj: Csr, old: Csr): FieldError[] {
    return validateCertificateSigningRequestUpdate(obj, old, 'main');
  }
  override selectableFields(obj: Csr): Record<string, string> {
    return { ...super.selectableFields(obj), 'spec.signerName': obj.spec?.signerName ?? '' };
  }
}

export const certificateSigningRequestStrategy = new CertificateSigningRequestStrategy();
