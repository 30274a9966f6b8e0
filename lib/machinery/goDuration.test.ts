import { DurationError, parseGoDuration } from './goDuration';

describe('parseGoDuration', () => {
  test.each([
    ['0', 0],
    ['1s', 1000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
    ['.5s', 500],
    ['250ms', 250],
    ['-2s', -2000],
    ['+3m', 180_000],
    ['1500us', 1.5],
  ])('%s → %d ms', (text, ms) => expect(parseGoDuration(text)).toBeCloseTo(ms));

  test.each(['', '1', 's', '1x', '1s2', '--1s', ' 1s'])('%j is invalid with Go\'s message', (text) => {
    expect(() => parseGoDuration(text)).toThrow(DurationError);
    expect(() => parseGoDuration(text)).toThrow(`time: invalid duration ${JSON.stringify(text)}`);
  });
});
