import { ApiError, errors, toApiError } from './errors';
import { fieldErr } from './fieldErrors';

const csr = { group: 'certificates.svc.io', resource: 'certificatesigningrequests' };

describe('errors (errors.md §3)', () => {
  test.each<[string, ApiError, number, string | undefined, string]>([
    ['notFound', errors.notFound(csr, 'foo'), 404, 'NotFound', 'certificatesigningrequests.certificates.svc.io "foo" not found'],
    ['notFound core', errors.notFound({ group: '', resource: 'namespaces' }, 'x'), 404, 'NotFound', 'namespaces "x" not found'],
    ['invalid', errors.invalid({ group: 'meta.svc.io', kind: 'ListOptions' }, '', [fieldErr.forbidden('sendInitialEvents', 'no')]), 422, 'Invalid',
      'ListOptions.meta.svc.io "" is invalid: sendInitialEvents: Forbidden: no'],
    ['badRequest', errors.badRequest('bad'), 400, 'BadRequest', 'bad'],
    ['requestEntityTooLarge', errors.requestEntityTooLarge('limit is 3145728'), 413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728'],
    ['genericUnprocessable', errors.genericUnprocessable(), 422, 'Invalid', 'the server rejected our request due to an error in our request'],
    ['plain', errors.plain(500, 'raw'), 500, undefined, 'raw'],
  ])('%s', (_name, e, code, reason, message) => {
    expect(e.code).toBe(code);
    expect(e.reason).toBe(reason);
    expect(e.status.message).toBe(message);
  });

  test('empty details are omitted, except for the generic 422', () => {
    expect('details' in errors.badRequest('x').status).toBe(false);
    expect(errors.genericUnprocessable().status.details).toEqual({});
  });

  test('toApiError wraps unknown errors as InternalError', () => {
    const e = toApiError(new Error('boom'));
    expect(e.status.message).toBe('Internal error occurred: boom');
    expect(e.status.details).toEqual({ causes: [{ message: 'boom' }] });
  });
});
