// Validity of an issued certificate (certificates.md §3, upstream PermissiveSigningPolicy):
// the TTL from spec.expirationSeconds and the flag, backdating, and capping at the CA's NotAfter.

const minute = 60_000;
const hour = 60 * minute;

export const validityDefaults = {
  /** `--cluster-signing-duration` default: 8760h. */
  maxDurationMs: 8760 * hour,
  /** NotBefore lies this far in the past to absorb clock skew. */
  backdateMs: 5 * minute,
  /** Certificates shorter than this keep their full NotAfter (5 min is ~1% of 8h). */
  shortMs: 8 * hour,
  /** Requested lifetimes are raised to this (twice the backdate). */
  minDurationMs: 10 * minute,
} as const;

/** A retryable signing failure (the CSR gets no Failed condition; the controller retries). */
export class SigningError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningError';
  }
}

/** The lifetime to issue: the flag maximum unless the request asks for less, never below 10 minutes. */
export function certificateTTL(expirationSeconds: number | null | undefined, maxDurationMs: number = validityDefaults.maxDurationMs): number {
  if (expirationSeconds === undefined || expirationSeconds === null) return maxDurationMs;
  const requested = expirationSeconds * 1000;
  // Order matters when the maximum itself is below the floor: the maximum wins (as upstream).
  if (requested > maxDurationMs) return maxDurationMs;
  if (requested < validityDefaults.minDurationMs) return validityDefaults.minDurationMs;
  return requested;
}

export interface Validity {
  notBefore: Date;
  notAfter: Date;
}

/**
 * NotBefore = now − 5 min; NotAfter = now + ttl (− 5 min when ttl ≥ 8h), capped at the CA's
 * NotAfter. Throws SigningError when the CA has expired.
 */
export function certificateValidity(now: Date, ttlMs: number, caNotAfter: Date): Validity {
  const t = now.getTime();
  const caEnd = caNotAfter.getTime();
  const notBefore = t - validityDefaults.backdateMs;
  let notAfter = ttlMs < validityDefaults.shortMs ? t + ttlMs : t + ttlMs - validityDefaults.backdateMs;
  if (notAfter >= caEnd) notAfter = caEnd;
  if (notBefore >= caEnd) throw new SigningError(`the signer has expired: NotAfter=${formatGoTime(caNotAfter)}`);
  if (t >= caEnd) throw new SigningError(`refusing to sign a certificate that expired in the past: NotAfter=${formatGoTime(caNotAfter)}`);
  return { notBefore: new Date(notBefore), notAfter: new Date(notAfter) };
}

/** Go's time.Time String() for a UTC time, e.g. `2027-01-10 08:00:00 +0000 UTC` (as `%v` prints it). */
export function formatGoTime(d: Date): string {
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const ms = d.getUTCMilliseconds();
  const fraction = ms ? `.${String(ms).padStart(3, '0').replace(/0+$/, '')}` : '';
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction} +0000 UTC`;
}
