import { errors, isApiError } from '../machinery/errors';
import { anonymousUser } from './anonymous';
import { authenticateRequest, unionAuthenticator, type Authenticator, type AuthRequest } from './authenticator';
import { withAuthenticatedGroup } from './user';

const req: AuthRequest = { socket: {}, headers: {} };
const returns = (name: string | null, groups: string[] = []): Authenticator => ({ authenticate: async () => (name ? { name, groups } : null) });
const throws = (e: unknown): Authenticator => ({
  authenticate: async () => {
    throw e;
  },
});

describe('unionAuthenticator', () => {
  test.each<[string, Authenticator[], boolean, unknown]>([
    ['first success wins and gains system:authenticated', [returns('a', ['g']), returns('b')], true, { name: 'a', groups: ['g', 'system:authenticated'] }],
    ['absent credentials fall through to the next', [returns(null), returns('b')], true, { name: 'b', groups: ['system:authenticated'] }],
    ['nothing presented → anonymous', [returns(null), returns(null)], true, { name: 'system:anonymous', groups: ['system:unauthenticated'] }],
    ['nothing presented, anonymous off → null', [returns(null)], false, null],
    ['a valid credential beats an invalid one', [throws(errors.unauthorized()), returns('b')], true, { name: 'b', groups: ['system:authenticated'] }],
    ['no authenticators → anonymous', [], true, { name: 'system:anonymous', groups: ['system:unauthenticated'] }],
  ])('%s', async (_n, list, anonymous, want) => {
    expect(await unionAuthenticator(list, { anonymous }).authenticate(req)).toEqual(want);
  });

  test.each<[string, unknown, unknown]>([
    ['an ApiError 401 passes through', Object.assign(errors.unauthorized(), { cause: 'x509: CERT_HAS_EXPIRED' }), 'x509: CERT_HAS_EXPIRED'],
    ['any other error becomes 401 with the text as cause', new Error('token expired'), 'token expired'],
    ['a non-401 ApiError becomes 401', errors.internal('boom'), 'Internal error occurred: boom'],
  ])('invalid credential → 401 and never anonymous: %s', async (_n, thrown, cause) => {
    const err = await unionAuthenticator([throws(thrown), returns(null)], { anonymous: true })
      .authenticate(req)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isApiError(err) && err.code).toBe(401);
    expect(isApiError(err) && err.status.message).toBe('Unauthorized');
    expect((err as Error).cause).toBe(cause);
  });

  test('authenticateRequest turns "nobody" into 401', async () => {
    await expect(authenticateRequest(unionAuthenticator([], { anonymous: false }), req)).rejects.toMatchObject({ code: 401 });
    await expect(authenticateRequest(unionAuthenticator([returns('x')]), req)).resolves.toEqual({ name: 'x', groups: ['system:authenticated'] });
  });
});

describe('withAuthenticatedGroup / anonymousUser', () => {
  test.each([
    [{ name: 'a', groups: [] }, ['system:authenticated']],
    [{ name: 'a', groups: ['x', 'system:authenticated'] }, ['x', 'system:authenticated']],
    [{ name: 'a', groups: ['system:unauthenticated'] }, ['system:unauthenticated']],
    [{ name: 'system:anonymous', groups: [] }, []],
  ])('%j', (user, groups) => {
    const out = withAuthenticatedGroup(user);
    expect(out.groups).toEqual(groups);
    expect(out.groups).not.toBe(user.groups);
  });

  test('each anonymous user is a fresh object', () => {
    const a = anonymousUser();
    a.groups.push('mutated');
    expect(anonymousUser()).toEqual({ name: 'system:anonymous', groups: ['system:unauthenticated'] });
  });
});
