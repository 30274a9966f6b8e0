import { ApiError } from './errors';
import { parseLabelSelector } from './labelSelector';

const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const keyNameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('parseLabelSelector: accepted forms and their canonical string', () => {
  test.each([
    ['', ''],
    ['   ', ''],
    ['x=a', 'x=a'],
    ['x==a', 'x==a'],
    ['x!=a', 'x!=a'],
    [' x = a ', 'x=a'],
    ['x=', 'x='],
    ['x in (b,a)', 'x in (a,b)'],
    ['x in (a,a)', 'x in (a)'],
    ['x notin (a)', 'x notin (a)'],
    ['x in ()', 'x in ()'],
    ['x in (a,,b)', 'x in (,a,b)'],
    ['x in (,a)', 'x in (,a)'],
    ['x in (in,notin)', 'x in (in,notin)'],
    ['x', 'x'],
    ['!x', '!x'],
    ['x>1', 'x>1'],
    ['x<10', 'x<10'],
    ['b=1,a=2', 'a=2,b=1'],
    ['example.com/app=web,tier', 'example.com/app=web,tier'],
    ['x\tin\t(a)', 'x in (a)'],
  ])('%j → %j', (input, canonical) => {
    expect(parseLabelSelector(input).toString()).toBe(canonical);
  });
});

describe('parseLabelSelector: errors are 400 with upstream texts', () => {
  test.each([
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['x=a,', "found '', expected: identifier after ','"],
    ['x,,y', "found ',', expected: identifier after ','"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in', "unable to parse requirement: found '' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['x in (a,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['x in (a,,)', "unable to parse requirement: found ')', expected: ',', or identifier"],
    ['x (a)', "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"],
    ['x!', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
    ['x=(', "unable to parse requirement: found '(', expected: identifier"],
    ['!=a', "found '!=', expected: !, identifier, or 'end of string'"],
    ['!(', "unable to parse requirement: found '(', expected: identifier"],
    ['x>a', `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['x>-1', `unable to parse requirement: values[0][x]: Invalid value: "-1": ${labelValueMsg}`],
    ['x=-a', `unable to parse requirement: values[0][x]: Invalid value: "-a": ${labelValueMsg}`],
    [
      'x in (-a,b-)',
      `unable to parse requirement: [values[0][x]: Invalid value: "-a": ${labelValueMsg}, values[1][x]: Invalid value: "b-": ${labelValueMsg}]`,
    ],
    ['-x=a', `unable to parse requirement: <nil>: Invalid value: "-x": ${keyNameMsg}`],
    ['a/b/c', `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`],
  ])('%j', (input, message) => {
    let err: unknown;
    try {
      parseLabelSelector(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(400);
    expect((err as ApiError).reason).toBe('BadRequest');
    expect((err as ApiError).status.message).toBe(message);
  });
});

describe('LabelSelector.matches', () => {
  test.each<[string, Record<string, string> | undefined, boolean]>([
    ['', undefined, true],
    ['x=a', { x: 'a' }, true],
    ['x=a', { x: 'b' }, false],
    ['x=a', {}, false],
    ['x==a', { x: 'a', y: 'b' }, true],
    ['x!=a', {}, true],
    ['x!=a', { x: 'a' }, false],
    ['x!=a', { x: 'b' }, true],
    ['x in (a,b)', { x: 'b' }, true],
    ['x in (a,b)', { x: 'c' }, false],
    ['x in (a,b)', undefined, false],
    ['x notin (a)', {}, true],
    ['x notin (a)', { x: 'a' }, false],
    ['x', { x: '' }, true],
    ['x', undefined, false],
    ['!x', undefined, true],
    ['!x', { x: 'a' }, false],
    ['x>5', { x: '6' }, true],
    ['x>5', { x: '5' }, false],
    ['x>5', { x: 'a' }, false],
    ['x>5', {}, false],
    ['x<5', { x: '-1' }, true],
    ['x=a,y', { x: 'a' }, false],
    ['x=a,y', { x: 'a', y: '' }, true],
    ['constructor', {}, false],
    ['toString=a', { toString: 'a' }, true],
  ])('%j on %j → %s', (sel, labels, want) => {
    expect(parseLabelSelector(sel).matches(labels)).toBe(want);
  });
});

describe('LabelSelector.requiresExactMatch', () => {
  test.each<[string, string, string | undefined]>([
    ['x=a', 'x', 'a'],
    ['x==a', 'x', 'a'],
    ['x in (a)', 'x', 'a'],
    ['x in (a,b)', 'x', undefined],
    ['x!=a', 'x', undefined],
    ['y=a', 'x', undefined],
  ])('%j, key %j → %j', (sel, key, want) => {
    expect(parseLabelSelector(sel).requiresExactMatch(key)).toBe(want);
  });
});
