import type { AuthorizationAttributes, Authorizer } from '../../auth/authorizer';
import { ApiError } from '../../machinery/errors';
import type { HandlerContext } from '../handlerContext';
import { authorizeUnsafeDelete, unsafeDeleteVerb } from './unsafeDelete';

function context(authorizer: Authorizer, subresource = ''): HandlerContext {
  return {
    user: { name: 'alice', groups: [] },
    info: { namespace: '', group: 'certificates.svc.io', version: 'v1', resource: 'certificatesigningrequests', subresource, name: 'bad' },
    served: { store: { groupResource: { group: 'certificates.svc.io', resource: 'certificatesigningrequests' } } },
    authorizer,
  } as unknown as HandlerContext;
}

function thrown(f: () => void): ApiError | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  return undefined;
}

describe('authorizeUnsafeDelete', () => {
  test('asks for the extra verb on the object', () => {
    const seen: AuthorizationAttributes[] = [];
    const allow: Authorizer = { authorize: (a) => (seen.push(a), { decision: 'allow', reason: '' }) };
    expect(thrown(() => authorizeUnsafeDelete(context(allow)))).toBeUndefined();
    expect(seen).toEqual([
      expect.objectContaining({ verb: unsafeDeleteVerb, isResourceRequest: true, apiGroup: 'certificates.svc.io', apiVersion: 'v1', resource: 'certificatesigningrequests', subresource: '', name: 'bad', namespace: '' }),
    ]);
  });

  test.each([
    ['', 'certificatesigningrequests.certificates.svc.io "bad" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors", reason: '],
    ['RBAC: nope', 'certificatesigningrequests.certificates.svc.io "bad" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors", reason: RBAC: nope'],
  ])('refused (reason %j): 403 with upstream message', (reason, message) => {
    const deny: Authorizer = { authorize: () => ({ decision: 'noOpinion', reason }) };
    expect(thrown(() => authorizeUnsafeDelete(context(deny)))?.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message,
      details: { name: 'bad', group: 'certificates.svc.io', kind: 'certificatesigningrequests' },
    });
  });

  test('a subresource is refused before asking', () => {
    const allow: Authorizer = { authorize: () => ({ decision: 'allow', reason: '' }) };
    expect(thrown(() => authorizeUnsafeDelete(context(allow, 'status')))?.status.message).toBe(
      'certificatesigningrequests.certificates.svc.io "bad" is forbidden: ignoreStoreReadErrorWithClusterBreakingPotential delete option is not allowed on a subresource or non-resource request',
    );
  });
});
