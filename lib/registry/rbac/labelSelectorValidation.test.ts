import type { LabelSelector } from '../../api';
import { renderFieldError } from '../../machinery/fieldErrors';
import { labelSelectorConversionFails, validateLabelSelector } from './labelSelectorValidation';

describe('validateLabelSelector', () => {
  const cases: [string, LabelSelector, boolean, string[]][] = [
    ['labels and expressions', { matchLabels: { 'example.com/tier': 'web', app: '' }, matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] }, false, []],
    [
      'a bad label key on the map path',
      { matchLabels: { '-x': 'v' } },
      false,
      [
        `s.matchLabels: Invalid value: "-x": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    ],
    [
      'a missing operator and key',
      { matchExpressions: [{}] },
      false,
      [
        's.matchExpressions[0].operator: Invalid value: "": not a valid selector operator',
        's.matchExpressions[0].key: Invalid value: "": name part must be non-empty',
        `s.matchExpressions[0].key: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    ],
    ['an invalid value tolerated', { matchExpressions: [{ key: 'a', operator: 'In', values: ['a b'] }] }, true, []],
  ];
  it.each(cases)('%s', (_name, selector, allow, expected) => {
    expect(validateLabelSelector(selector, { allowInvalidLabelValueInSelector: allow }, 's').map(renderFieldError)).toEqual(expected);
  });
});

describe('labelSelectorConversionFails (LabelSelectorAsSelector)', () => {
  const cases: [string, LabelSelector, boolean][] = [
    ['empty selector', {}, false],
    ['valid labels', { matchLabels: { a: 'b', c: '' } }, false],
    ['valid expressions', { matchExpressions: [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'In', values: ['x', 'y'] }] }, false],
    ['bad label key', { matchLabels: { 'a b': 'c' } }, true],
    ['bad label value', { matchLabels: { a: 'b c' } }, true],
    ['unknown operator', { matchExpressions: [{ key: 'a', operator: 'Lt', values: ['1'] }] }, true],
    ['NotIn without values', { matchExpressions: [{ key: 'a', operator: 'NotIn', values: [] }] }, true],
    ['DoesNotExist with values', { matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: ['x'] }] }, true],
    ['bad expression key', { matchExpressions: [{ key: '', operator: 'Exists' }] }, true],
    ['bad expression value', { matchExpressions: [{ key: 'a', operator: 'In', values: ['ok', 'not ok'] }] }, true],
  ];
  it.each(cases)('%s', (_name, selector, expected) => {
    expect(labelSelectorConversionFails(selector)).toBe(expected);
  });
});
