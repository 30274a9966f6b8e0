import { parseGoJsonTree } from './goJson';
import { firstFloatOverflow, nestsDeeperThan } from './nesting';

describe('nestsDeeperThan', () => {
  test.each([
    ['1', 0, false],
    ['[]', 0, true],
    ['[]', 1, false],
    ['{"a":[{}]}', 2, true],
    ['{"a":[{}]}', 3, false],
    ['[1,[2,[3]],4]', 2, true],
    [`${'['.repeat(10_000)}${']'.repeat(10_000)}`, 1000, true],
    [`${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`, 1000, false],
    [`${'{"a":'.repeat(1001)}1${'}'.repeat(1001)}`, 1000, true],
  ])('%s deeper than %d: %s', (text, max, want) => {
    expect(nestsDeeperThan(parseGoJsonTree(text), max)).toBe(want);
  });
});

describe('firstFloatOverflow', () => {
  test.each([
    ['{"a":1,"b":[2.5,1e308]}', undefined],
    ['{"a":1e-400}', undefined],
    ['{"a":1e400}', '1e400'],
    ['[-1e400,2e400]', '-1e400'],
    ['{"a":{"b":[1,{"c":1.8e308}]},"d":1e999}', '1.8e308'],
    [`{"a":${'9'.repeat(400)}}`, '9'.repeat(400)],
    ['"1e400"', undefined],
  ])('%s → %s', (text, want) => {
    expect(firstFloatOverflow(parseGoJsonTree(text))).toBe(want);
  });
});
