// Condition bookkeeping shared by the /status and /approval endpoints: finding conditions of a
// type, restoring protected ones from the stored object, and server-set timestamps.
import type { CertificateSigningRequest, CertificateSigningRequestCondition } from '../../api';
import { formatTime } from '../systemFields';

type Condition = CertificateSigningRequestCondition;

export function conditionsOf(csr: CertificateSigningRequest): Condition[] {
  const c = csr.status?.conditions;
  return Array.isArray(c) ? c : [];
}

export function findConditions(csr: CertificateSigningRequest, type: string): Condition[] {
  return conditionsOf(csr).filter((c) => c.type === type);
}

/**
 * Copies the stored instances of `type` over the new ones, position by position, when their
 * number is unchanged; an addition or removal is left for validation to refuse.
 */
export function preserveConditionInstances(obj: CertificateSigningRequest, old: CertificateSigningRequest, type: string): void {
  const oldConds = conditionsOf(old);
  const newConds = conditionsOf(obj);
  const oldIdx = oldConds.flatMap((c, i) => (c.type === type ? [i] : []));
  const newIdx = newConds.flatMap((c, i) => (c.type === type ? [i] : []));
  if (oldIdx.length !== newIdx.length) return;
  newIdx.forEach((n, i) => {
    newConds[n] = structuredClone(oldConds[oldIdx[i]]);
  });
}

/** A missing or null time is Go's zero time. */
function isZeroTime(t: unknown): boolean {
  return t === undefined || t === null || t === '';
}

/**
 * Sets a missing lastUpdateTime to now, and a missing lastTransitionTime to the one of a stored
 * condition with the same type and status, else to now.
 */
export function populateConditionTimestamps(obj: CertificateSigningRequest, old: CertificateSigningRequest, now: Date): void {
  const stamp = formatTime(now);
  const oldConds = conditionsOf(old);
  for (const c of conditionsOf(obj)) {
    if (isZeroTime(c.lastUpdateTime)) c.lastUpdateTime = stamp;
    if (isZeroTime(c.lastTransitionTime)) {
      const prev = oldConds.find((o) => o.type === c.type && o.status === c.status && !isZeroTime(o.lastTransitionTime));
      c.lastTransitionTime = prev?.lastTransitionTime ?? stamp;
    }
  }
}

const conditionFields = [
  ['Type', 'type'],
  ['Status', 'status'],
  ['Reason', 'reason'],
  ['Message', 'message'],
  ['LastUpdateTime', 'lastUpdateTime'],
  ['LastTransitionTime', 'lastTransitionTime'],
] as const;

/** Go's view of a field: absent strings are "", times compare by instant. */
function normalized(c: Condition, key: (typeof conditionFields)[number][1]): string {
  const v = c[key];
  if (key === 'lastUpdateTime' || key === 'lastTransitionTime') {
    if (isZeroTime(v)) return '';
    const ms = Date.parse(String(v));
    return Number.isNaN(ms) ? String(v) : formatTime(new Date(ms));
  }
  return typeof v === 'string' ? v : '';
}

/** Semantic equality of two condition lists (upstream compares with apiequality.Semantic). */
export function conditionListsEqual(a: readonly Condition[], b: readonly Condition[]): boolean {
  return a.length === b.length && a.every((c, i) => conditionFields.every(([, k]) => normalized(c, k) === normalized(b[i], k)));
}

/** A readable old-vs-new diff in the spirit of go-cmp's output ("-" old, "+" new). */
export function conditionListDiff(a: readonly Condition[], b: readonly Condition[]): string {
  const lines = ['  []certificates.CertificateSigningRequestCondition{'];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const o = a[i];
    const n = b[i];
    lines.push('  \t{');
    for (const [goName, key] of conditionFields) {
      const ov = o ? JSON.stringify(normalized(o, key)) : undefined;
      const nv = n ? JSON.stringify(normalized(n, key)) : undefined;
      if (ov === nv) lines.push(`  \t\t${goName}: ${ov},`);
      else {
        if (ov !== undefined) lines.push(`- \t\t${goName}: ${ov},`);
        if (nv !== undefined) lines.push(`+ \t\t${goName}: ${nv},`);
      }
    }
    lines.push('  \t},');
  }
  lines.push('  }');
  return `${lines.join('\n')}\n`;
}
