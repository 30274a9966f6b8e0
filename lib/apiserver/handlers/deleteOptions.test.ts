import { ApiError } from '../../machinery/errors';
import type { DeleteOptions } from '../../api';
import { parseGracePeriodSeconds, unsafeDeleteConflicts } from './deleteOptions';

describe('parseGracePeriodSeconds', () => {
  test.each([
    ['0', 0],
    ['30', 30],
    ['-1', -1],
    ['+5', 5],
    ['9223372036854775807', 9223372036854775807],
  ])('%s → %d', (text, want) => {
    expect(parseGracePeriodSeconds(text)).toBe(want);
  });

  test.each([
    ['abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ['', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['99999999999999999999', 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
    ['-9223372036854775809', 'strconv.ParseInt: parsing "-9223372036854775809": value out of range'],
  ])('%s is a 400: %s', (text, message) => {
    let err: unknown;
    try {
      parseGracePeriodSeconds(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });
});

describe('unsafeDeleteConflicts (upstream ValidateIgnoreStoreReadError)', () => {
  const field = 'ignoreStoreReadErrorWithClusterBreakingPotential';
  test.each<[string, DeleteOptions, boolean, string[]]>([
    ['option off', { gracePeriodSeconds: 0, preconditions: { uid: 'x' } }, true, []],
    ['option alone', { [field]: true }, false, []],
    ['dryRun', { [field]: true }, true, ['cannot be set together with .dryRun']],
    ['propagationPolicy', { [field]: true, propagationPolicy: 'Background' }, false, ['cannot be set together with .propagationPolicy']],
    ['orphanDependents', { [field]: true, orphanDependents: false }, false, ['cannot be set together with .orphanDependents']],
    ['gracePeriodSeconds', { [field]: true, gracePeriodSeconds: 0 }, false, ['cannot be set together with .gracePeriodSeconds']],
    ['preconditions', { [field]: true, preconditions: {} }, false, ['cannot be set together with .preconditions']],
    [
      'all of them, in upstream order',
      { [field]: true, propagationPolicy: 'Orphan', orphanDependents: true, gracePeriodSeconds: 1, preconditions: { resourceVersion: '1' } },
      true,
      ['dryRun', 'propagationPolicy', 'orphanDependents', 'gracePeriodSeconds', 'preconditions'].map((f) => `cannot be set together with .${f}`),
    ],
  ])('%s', (_name, opts, dryRun, details) => {
    const errs = unsafeDeleteConflicts(opts, dryRun);
    expect(errs.map((e) => e.detail)).toEqual(details);
    for (const e of errs) expect(e).toMatchObject({ type: 'FieldValueInvalid', field, value: true });
  });
});
