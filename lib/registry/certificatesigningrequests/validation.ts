// CertificateSigningRequest validation (errors.md §5, upstream's certificates validation):
// the rules every write runs, the update-only rules per endpoint, and the compatibility
// relaxations that keep objects already stored in a bad shape updatable.
import type { CertificateSigningRequest } from '../../api';
import { conditionTypes, knownKeyUsages, signerNames } from '../../api';
import { fieldErr, FieldError } from '../../machinery/fieldErrors';
import { certificateContentError } from './certificateParsing';
import { conditionListDiff, conditionListsEqual, conditionsOf, findConditions } from './conditions';
import { certificateRequestError } from './requestParsing';
import { validateSignerName } from './signerName';

/** The endpoint an update came through: each may change different parts of the object. */
export type CsrEndpoint = 'main' | 'status' | 'approval';

interface ValidationOptions {
  /** Approved/Denied may be added or changed (the /approval endpoint). */
  allowSettingApprovalConditions: boolean;
  /** status.certificate may be set (the /status endpoint). */
  allowSettingCertificate: boolean;
  // Problems tolerated because the stored object already has them.
  allowBothApprovedAndDenied: boolean;
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowUnknownUsages: boolean;
  allowDuplicateUsages: boolean;
}

const knownUsageSet: ReadonlySet<string> = new Set(knownKeyUsages);
/** Condition types whose status may only be "True". */
const trueOnlyTypes: ReadonlySet<string> = new Set([conditionTypes.approved, conditionTypes.denied, conditionTypes.failed]);
const trueOnly = ['True'];
const allStatuses = ['False', 'True', 'Unknown'];

/** A bytes field as decoded from JSON (base64 text); absent means empty. */
export function bytesOf(v: unknown): Buffer {
  return typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0);
}

function usagesOf(csr: CertificateSigningRequest): string[] {
  const u = csr.spec?.usages;
  return Array.isArray(u) ? u : [];
}

function hasDuplicates(values: readonly string[]): boolean {
  return new Set(values).size !== values.length;
}

function optionsFor(csr: CertificateSigningRequest, old: CertificateSigningRequest | null): ValidationOptions {
  const oldTypes = old ? conditionsOf(old).map((c) => c.type ?? '') : [];
  const oldUsages = old ? usagesOf(old) : [];
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowBothApprovedAndDenied: oldTypes.includes(conditionTypes.approved) && oldTypes.includes(conditionTypes.denied),
    allowLegacySignerName: old?.spec?.signerName === signerNames.legacyUnknown,
    allowDuplicateConditionTypes: hasDuplicates(oldTypes),
    allowEmptyConditionType: oldTypes.includes(''),
    allowArbitraryCertificate:
      old !== null &&
      (bytesOf(csr.status?.certificate).equals(bytesOf(old.status?.certificate)) ||
        certificateContentError(bytesOf(old.status?.certificate)) !== null),
    allowUnknownUsages: oldUsages.some((u) => !knownUsageSet.has(u)),
    allowDuplicateUsages: hasDuplicates(oldUsages),
  };
}

function validateConditions(csr: CertificateSigningRequest, opts: ValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasApproved = false;
  let hasDenied = false;
  conditionsOf(csr).forEach((c, i) => {
    const path = `status.conditions[${i}]`;
    const type = c.type ?? '';
    const status = c.status ?? '';
    if (!opts.allowEmptyConditionType && type === '') errs.push(fieldErr.required(`${path}.type`));
    const allowed = trueOnlyTypes.has(type) ? trueOnly : allStatuses;
    if (status === '') errs.push(fieldErr.required(`${path}.status`));
    else if (!allowed.includes(status)) errs.push(fieldErr.notSupported(`${path}.status`, status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (type === conditionTypes.approved) hasApproved = true;
      if (type === conditionTypes.denied) hasDenied = true;
      if ((type === conditionTypes.approved && hasDenied) || (type === conditionTypes.denied && hasApproved)) {
        errs.push(fieldErr.invalid('status.conditions', type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errs.push(fieldErr.duplicate(`${path}.type`, type));
      seen.add(type);
    }
  });
  return errs;
}

function validateCsr(csr: CertificateSigningRequest, opts: ValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const spec = csr.spec ?? {};

  const requestError = certificateRequestError(bytesOf(spec.request));
  if (requestError !== null) errs.push(fieldErr.invalid('spec.request', spec.request, requestError));

  const usages = usagesOf(csr);
  if (usages.length === 0) errs.push(fieldErr.required('spec.usages'));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!knownUsageSet.has(u)) errs.push(fieldErr.notSupported(`spec.usages[${i}]`, u, knownKeyUsages));
    });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(fieldErr.duplicate(`spec.usages[${i}]`, u));
      seen.add(u);
    });
  }

  const signerName = spec.signerName ?? '';
  if (!opts.allowLegacySignerName && signerName === signerNames.legacyUnknown) {
    errs.push(fieldErr.invalid('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'));
  } else {
    errs.push(...validateSignerName('spec.signerName', signerName));
  }

  const exp = spec.expirationSeconds;
  if (typeof exp === 'number' && exp < 600) {
    errs.push(fieldErr.invalid('spec.expirationSeconds', exp, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }

  errs.push(...validateConditions(csr, opts));

  if (!opts.allowArbitraryCertificate) {
    const certError = certificateContentError(bytesOf(csr.status?.certificate));
    if (certError !== null) errs.push(fieldErr.invalid('status.certificate', '<certificate data>', certError));
  }
  return errs;
}

/** Rules 1–19 for a new request. ObjectMeta rules are the generic store's. */
export function validateCertificateSigningRequestCreate(csr: CertificateSigningRequest): FieldError[] {
  return validateCsr(csr, optionsFor(csr, null));
}

const protectedTypes = [conditionTypes.approved, conditionTypes.denied, conditionTypes.failed];
const approvalTypes = [conditionTypes.approved, conditionTypes.denied];

/** Rules 1–19 (relaxed where `old` already breaks them) plus the update-only rules of `endpoint`. */
export function validateCertificateSigningRequestUpdate(
  csr: CertificateSigningRequest,
  old: CertificateSigningRequest,
  endpoint: CsrEndpoint,
): FieldError[] {
  const opts = optionsFor(csr, old);
  opts.allowSettingApprovalConditions = endpoint === 'approval';
  opts.allowSettingCertificate = endpoint === 'status';
  const errs = validateCsr(csr, opts);

  for (const t of protectedTypes) {
    if (findConditions(csr, t).length < findConditions(old, t).length) {
      errs.push(fieldErr.forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(t)}`));
    }
  }

  if (!opts.allowSettingApprovalConditions) {
    for (const t of approvalTypes) {
      const oldConds = findConditions(old, t);
      const newConds = findConditions(csr, t);
      if (newConds.length > oldConds.length) {
        errs.push(fieldErr.forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(t)}`));
      } else if (newConds.length === oldConds.length && !conditionListsEqual(oldConds, newConds)) {
        errs.push(
          fieldErr.forbidden(
            'status.conditions',
            `updates may not modify a condition of type ${JSON.stringify(t)}\n${conditionListDiff(oldConds, newConds)}`,
          ),
        );
      }
    }
  }

  const newCert = bytesOf(csr.status?.certificate);
  const oldCert = bytesOf(old.status?.certificate);
  if (!newCert.equals(oldCert)) {
    if (!opts.allowSettingCertificate) {
      errs.push(fieldErr.forbidden('status.certificate', 'updates may not set certificate content'));
    } else if (oldCert.length > 0) {
      errs.push(fieldErr.forbidden('status.certificate', 'updates may not modify existing certificate content'));
    }
  }
  return errs;
}
