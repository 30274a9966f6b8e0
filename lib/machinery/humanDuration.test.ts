import { humanDuration } from './humanDuration';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

// Cases from apimachinery's duration_test.go (TestHumanDuration) plus the boundaries.
describe('humanDuration', () => {
  test.each<[number, string]>([
    [-2 * s, '<invalid>'],
    [-1999, '0s'],
    [-1 * s, '0s'],
    [-1, '0s'],
    [0, '0s'],
    [1 * s, '1s'],
    [59 * s, '59s'],
    [60 * s, '60s'],
    [95 * s, '95s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [2 * m + 1 * s, '2m1s'],
    [5 * m + 12 * s, '5m12s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m, '10m'],
    [10 * m + 59 * s, '10m'],
    [60 * m, '60m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 1 * m, '3h1m'],
    [7 * h + 5 * m, '7h5m'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h, '8h'],
    [24 * h, '24h'],
    [47 * h + 59 * m, '47h'],
    [48 * h, '2d'],
    [3 * d + 4 * h, '3d4h'],
    [7 * d + 23 * h, '7d23h'],
    [8 * d, '8d'],
    [365 * d, '365d'],
    [2 * 365 * d - 1, '729d'],
    [2 * 365 * d, '2y'],
    [2 * 365 * d + 10 * d, '2y10d'],
    [8 * 365 * d - 1, '7y364d'],
    [8 * 365 * d, '8y'],
    [9 * 365 * d, '9y'],
    [600 * s, '10m'],
    [86400 * s, '24h'],
  ])('%d ms → %s', (ms, want) => {
    expect(humanDuration(ms)).toBe(want);
  });
});
