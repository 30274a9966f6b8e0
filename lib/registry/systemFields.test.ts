import { formatTime } from './systemFields';

describe('formatTime (metav1.Time: RFC 3339, second precision)', () => {
  test.each([
    ['2026-11-24T22:58:28.123Z', '2026-11-24T22:58:28Z'],
    ['2026-11-24T22:58:28.000Z', '2026-11-24T22:58:28Z'],
    ['1970-01-01T00:00:00.999Z', '1970-01-01T00:00:00Z'],
    ['0001-01-01T00:00:00.000Z', '0001-01-01T00:00:00Z'],
  ])('%s → %s', (iso, want) => {
    expect(formatTime(new Date(iso))).toBe(want);
  });

  test('the same second twice, then the next, then an earlier one', () => {
    const t = Date.UTC(2026, 10, 24, 23, 15, 0, 100);
    expect([t, t + 800, t + 900, t - 200].map((ms) => formatTime(new Date(ms)))).toEqual([
      '2026-11-24T23:15:00Z',
      '2026-11-24T23:15:00Z',
      '2026-11-24T23:15:01Z',
      '2026-11-24T23:14:59Z',
    ]);
  });

  test('an invalid date throws', () => {
    expect(() => formatTime(new Date(Number.NaN))).toThrow(RangeError);
  });

  test('a year past 9999 keeps its extended form', () => {
    expect(formatTime(new Date(Date.UTC(10000, 0, 1, 0, 0, 0, 500)))).toBe('+010000-01-01T00:00:00Z');
  });
});
