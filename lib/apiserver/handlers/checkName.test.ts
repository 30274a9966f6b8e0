import type { ApiObject } from '../../api';
import { ApiError } from '../../machinery/errors';
import { checkName } from './checkName';

describe('checkName', () => {
  test('the URL name passes', () => {
    expect(() => checkName({ metadata: { name: 'keep' } }, 'keep')).not.toThrow();
  });

  test.each<[string, ApiObject, string]>([
    ['no metadata (an empty body)', {}, 'the name of the object () does not match the name on the URL (keep)'],
    ['an empty name', { metadata: { name: '' } }, 'the name of the object () does not match the name on the URL (keep)'],
    ['another name', { metadata: { name: 'other' } }, 'the name of the object (other) does not match the name on the URL (keep)'],
  ])('%s is a 400', (_what, obj, message) => {
    let err: unknown;
    try {
      checkName(obj, 'keep');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });
});
