// Reading and writing CSR conditions as upstream's certificate_controller_utils.go does, and the
// metav1.Time wire form (RFC 3339, whole seconds, UTC).
import { conditionTypes, type CertificateSigningRequest, type CertificateSigningRequestCondition } from '../../api';

/** Approved / Denied by condition type alone, whatever the status (GetCertApprovalCondition). */
export function approvalState(csr: CertificateSigningRequest): { approved: boolean; denied: boolean } {
  let approved = false;
  let denied = false;
  for (const c of csr.status?.conditions ?? []) {
    if (c.type === conditionTypes.approved) approved = true;
    if (c.type === conditionTypes.denied) denied = true;
  }
  return { approved, denied };
}

/** Approved and not Denied (IsCertificateRequestApproved). */
export function isApproved(csr: CertificateSigningRequest): boolean {
  const { approved, denied } = approvalState(csr);
  return approved && !denied;
}

/** A condition of this type with status True or empty (HasTrueCondition). */
export function hasTrueCondition(csr: CertificateSigningRequest, type: string): boolean {
  return (csr.status?.conditions ?? []).some((c) => c.type === type && (!c.status || c.status === 'True'));
}

export function hasCertificate(csr: CertificateSigningRequest): boolean {
  return !!csr.status?.certificate;
}

/** A copy of `csr` with `condition` appended to status.conditions. */
export function withCondition(csr: CertificateSigningRequest, condition: CertificateSigningRequestCondition): CertificateSigningRequest {
  const status = csr.status ?? {};
  return { ...csr, status: { ...status, conditions: [...(status.conditions ?? []), condition] } };
}

/** metav1.Time as JSON carries it: `2026-01-10T08:02:00Z`. */
export function formatApiTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Go's zero time.Time: what an unset time decodes to; never "very old". */
const goZeroTime = Date.parse('0001-01-01T00:00:00Z');

/** Milliseconds of a metav1.Time, or undefined for an unset (zero) or unreadable time. */
export function parseApiTime(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms) || ms === goZeroTime) return undefined;
  return ms;
}
