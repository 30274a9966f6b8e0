// Audit timestamps are metav1.MicroTime: RFC 3339 in UTC with exactly six fractional digits
// ("2026-11-21T09:26:00.123456Z"). A Date only holds milliseconds, so a clock that wants real
// microseconds hands over a bigint of microseconds since the epoch instead.

/** A Date (millisecond precision) or a bigint count of microseconds since the Unix epoch. */
export type AuditTime = Date | bigint;

export function formatMicroTime(t: AuditTime): string {
  const micros = typeof t === 'bigint' ? t : BigInt(t.getTime()) * 1000n;
  // Floor division, so instants before 1970 still get a non-negative fraction.
  let ms = micros / 1000n;
  let sub = micros % 1000n;
  if (sub < 0n) {
    sub += 1000n;
    ms -= 1n;
  }
  const iso = new Date(Number(ms)).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  return `${iso.slice(0, -1)}${sub.toString().padStart(3, '0')}Z`;
}

/** The current time with the microseconds the process clock can give. */
export function nowMicros(): bigint {
  return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000));
}
