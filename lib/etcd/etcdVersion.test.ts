import { progressRequestsAreOrdered } from './etcdVersion';

describe('progressRequestsAreOrdered', () => {
  test.each([
    ['3.4.23', false],
    ['3.4.24', false],
    ['3.4.25', true],
    ['3.5.7', false],
    ['3.5.8', true],
    ['3.6.0', true],
    ['3.3.27', false],
    ['4.0.0', true],
    ['garbage', false],
  ])('%s → %s', (v, want) => {
    expect(progressRequestsAreOrdered(v)).toBe(want);
  });
});
