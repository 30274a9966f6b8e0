import { formatMicroTime, nowMicros } from './microTime';

describe('formatMicroTime', () => {
  test.each<[Date | bigint, string]>([
    [new Date('2026-11-21T09:26:00.123Z'), '2026-11-21T09:26:00.123000Z'],
    [new Date(0), '1970-01-01T00:00:00.000000Z'],
    [1795253160123456n, '2026-11-21T09:26:00.123456Z'],
    [1n, '1970-01-01T00:00:00.000001Z'],
    [-1n, '1969-12-31T23:59:59.999999Z'],
  ])('%p → %s', (t, want) => {
    expect(formatMicroTime(t)).toBe(want);
  });
});

describe('nowMicros', () => {
  test('is the wall clock in microseconds', () => {
    const before = BigInt(Date.now()) * 1000n;
    const t = nowMicros();
    const after = BigInt(Date.now()) * 1000n + 1000n;
    expect(t >= before - 1000n && t <= after).toBe(true);
  });
});
