import { ApiError } from '../../machinery/errors';
import { parseGracePeriodSeconds } from './deleteOptions';

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
