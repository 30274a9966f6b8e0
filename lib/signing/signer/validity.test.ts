import { certificateTTL, certificateValidity, formatGoTime, SigningError, validityDefaults } from './validity';

const min = 60_000;
const hour = 60 * min;

describe('certificateTTL', () => {
  test.each<[string, number | null | undefined, number, number]>([
    ['unset → the maximum', undefined, validityDefaults.maxDurationMs, 8760 * hour],
    ['null → the maximum', null, 24 * hour, 24 * hour],
    ['below the maximum is honoured', 3600, 8760 * hour, hour],
    ['exactly 10 minutes', 600, 8760 * hour, 10 * min],
    ['below 10 minutes is raised', 1, 8760 * hour, 10 * min],
    ['above the maximum is capped', 2 * 8760 * 3600, 8760 * hour, 8760 * hour],
    ['the maximum wins over the floor', 3600, 5 * min, 5 * min],
  ])('%s', (_n, exp, max, want) => {
    expect(certificateTTL(exp, max)).toBe(want);
  });
  test('defaults to 8760h', () => {
    expect(certificateTTL(undefined)).toBe(8760 * hour);
  });
});

describe('certificateValidity', () => {
  const now = new Date('2026-01-10T08:00:00Z');
  const caEnd = new Date('2030-01-01T00:00:00Z');
  const at = (ms: number): string => new Date(now.getTime() + ms).toISOString();
  test.each<[string, number, Date, string]>([
    ['short: NotAfter not shortened', hour, caEnd, at(hour)],
    ['just under 8h: still short', 8 * hour - 1, caEnd, at(8 * hour - 1)],
    ['8h: NotAfter backdated too', 8 * hour, caEnd, at(8 * hour - 5 * min)],
    ['a year', 8760 * hour, caEnd, at(8760 * hour - 5 * min)],
    ['capped at the CA NotAfter', 8760 * hour, new Date(now.getTime() + 2 * hour), at(2 * hour)],
    ['CA ends exactly at the computed NotAfter', hour, new Date(now.getTime() + hour), at(hour)],
    ['CA ends one minute from now', hour, new Date(now.getTime() + min), at(min)],
  ])('%s', (_n, ttl, ca, notAfter) => {
    const v = certificateValidity(now, ttl, ca);
    expect(v.notBefore.toISOString()).toBe(at(-5 * min));
    expect(v.notAfter.toISOString()).toBe(notAfter);
  });

  test.each<[string, Date, string]>([
    ['CA ended now', now, 'refusing to sign a certificate that expired in the past: NotAfter=2026-01-10 08:00:00 +0000 UTC'],
    ['CA ended 4 minutes ago (inside the backdate)', new Date(now.getTime() - 4 * min), 'refusing to sign a certificate that expired in the past: NotAfter=2026-01-10 07:56:00 +0000 UTC'],
    ['CA ended exactly 5 minutes ago', new Date(now.getTime() - 5 * min), 'the signer has expired: NotAfter=2026-01-10 07:55:00 +0000 UTC'],
    ['CA ended a year ago', new Date('2025-01-10T08:00:00Z'), 'the signer has expired: NotAfter=2025-01-10 08:00:00 +0000 UTC'],
  ])('%s', (_n, ca, msg) => {
    let err: unknown;
    try {
      certificateValidity(now, hour, ca);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SigningError);
    expect((err as Error).message).toBe(msg);
  });
});

test.each([
  ['2027-01-10T08:00:00.000Z', '2027-01-10 08:00:00 +0000 UTC'],
  ['2027-01-10T08:00:00.120Z', '2027-01-10 08:00:00.12 +0000 UTC'],
  ['2050-12-31T23:59:59.001Z', '2050-12-31 23:59:59.001 +0000 UTC'],
])('formatGoTime %s', (iso, want) => {
  expect(formatGoTime(new Date(iso))).toBe(want);
});
