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

  test('a year past 9999 keeps its extended form', () => {
    expect(formatTime(new Date(Date.UTC(10000, 0, 1, 0, 0, 0, 500)))).toBe('+010000-01-01T00:00:00Z');
  });
});
