// The review endpoints: validation and messages as upstream, and what each answers.
import type { ApiObject } from '../../api';
import { isApiError } from '../../machinery/errors';
import type { RequestContext } from '../../registry/strategy';
import type { AuthorizationAttributes, Authorizer, RuleResolver } from '../authorizer';
import type { TokenAuthenticator } from '../bearer';
import { selfSubjectReviewEndpoint, selfSubjectRulesReviewEndpoint, subjectAccessReviewEndpoint, tokenReviewEndpoint } from './index';

const alice = { name: 'alice', uid: 'u1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } };
const ctx = (namespace = ''): RequestContext => ({ user: alice, namespace, subresource: '', dryRun: false, now: () => new Date() });

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (isApiError(e)) return `${e.code} ${e.message}`;
    throw e;
  }
}

/** Allows `get serviceaccounts` for alice, denies `delete` explicitly, no opinion otherwise; records the attributes. */
function recordingAuthorizer(): Authorizer & { seen: AuthorizationAttributes[] } {
  const seen: AuthorizationAttributes[] = [];
  return {
    seen,
    authorize(a) {
      seen.push(a);
      if (a.verb === 'get' && a.resource === 'serviceaccounts' && a.user.name === 'alice') return { decision: 'allow', reason: 'granted' };
      if (a.verb === 'delete') return { decision: 'deny', reason: 'never', evaluationError: 'oops' };
      return { decision: 'noOpinion', reason: '' };
    },
  };
}

describe('SubjectAccessReview family', () => {
  const spec = { user: 'alice', groups: ['devs'], uid: 'u1', resourceAttributes: { verb: 'get', resource: 'serviceaccounts', namespace: 'ns', version: 'v1' } };

  test('asks the authorizer as the reviewed subject and reports the decision', async () => {
    const az = recordingAuthorizer();
    const out = (await subjectAccessReviewEndpoint('SubjectAccessReview', az).create(ctx(), '', { spec } as ApiObject)) as ApiObject & { status: unknown };
    expect(out).toMatchObject({ kind: 'SubjectAccessReview', apiVersion: 'authorization.svc.io/v1', status: { allowed: true, reason: 'granted' } });
    expect(az.seen[0]).toMatchObject({ user: { name: 'alice', uid: 'u1', groups: ['devs'] }, verb: 'get', resource: 'serviceaccounts', namespace: 'ns', isResourceRequest: true, apiVersion: 'v1' });
  });

  test('a deny carries denied and the evaluation error', async () => {
    const out = await subjectAccessReviewEndpoint('SubjectAccessReview', recordingAuthorizer()).create(ctx(), '', {
      spec: { user: 'x', nonResourceAttributes: { path: '/x', verb: 'delete' } },
    } as ApiObject);
    expect(out).toMatchObject({ status: { allowed: false, denied: true, reason: 'never', evaluationError: 'oops' } });
  });

  test('the self review uses the caller, whatever the spec says', async () => {
    const az = recordingAuthorizer();
    await subjectAccessReviewEndpoint('SelfSubjectAccessReview', az).create(ctx(), '', { spec: { resourceAttributes: { verb: 'get', resource: 'serviceaccounts' } } } as ApiObject);
    expect(az.seen[0].user).toBe(alice);
  });

  test.each([
    [
      'neither attributes',
      { user: 'a' },
      'SubjectAccessReview.authorization.svc.io "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified',
    ],
    ['no user or groups', { resourceAttributes: { verb: 'get' } }, 'spec.user: Invalid value: "": at least one of user or group must be specified'],
    ['both attributes', { user: 'a', resourceAttributes: {}, nonResourceAttributes: {} }, 'spec.nonResourceAttributes: Invalid value:'],
  ])('422 for %s', async (_, badSpec, text) => {
    const got = await failure(subjectAccessReviewEndpoint('SubjectAccessReview', recordingAuthorizer()).create(ctx(), '', { spec: badSpec } as ApiObject));
    expect(got.startsWith('422 ')).toBe(true);
    expect(got).toContain(text);
  });

  test('metadata must be empty', async () => {
    const got = await failure(subjectAccessReviewEndpoint('SubjectAccessReview', recordingAuthorizer()).create(ctx(), '', { metadata: { name: 'x' }, spec } as ApiObject));
    expect(got).toMatch(/^422 .*metadata: Invalid value: .*must be empty/);
  });

  test('a local review must name the URL namespace and no URL', async () => {
    const local = subjectAccessReviewEndpoint('LocalSubjectAccessReview', recordingAuthorizer());
    expect(await failure(local.create(ctx('ns'), '', { metadata: { namespace: 'ns' }, spec } as ApiObject))).toBe('ok');
    expect(await failure(local.create(ctx('other'), '', { spec } as ApiObject))).toBe('400 spec.resourceAttributes.namespace must match namespace: other');
    expect(await failure(local.create(ctx('ns'), '', { spec: { user: 'a', nonResourceAttributes: { path: '/x', verb: 'get' } } } as ApiObject))).toMatch(/^400 disallowed on this kind of request/);
  });
});

describe('SelfSubjectRulesReview', () => {
  const resolver: RuleResolver = {
    rulesFor: (user, namespace) => ({
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: [`${user.name}-${namespace}`] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      incomplete: false,
    }),
  };
  test('answers the caller\'s rules in the namespace, with an empty spec as upstream', async () => {
    const out = await selfSubjectRulesReviewEndpoint(resolver).create(ctx(), '', { spec: { namespace: 'team' } } as ApiObject);
    expect(out).toEqual({
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.svc.io/v1',
      metadata: {},
      spec: {},
      status: { resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['alice-team'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], incomplete: false },
    });
  });
  test('a namespace is required', async () => {
    expect(await failure(selfSubjectRulesReviewEndpoint(resolver).create(ctx(), '', { spec: {} } as ApiObject))).toBe('400 no namespace on request');
  });
});

describe('SelfSubjectReview', () => {
  test('reports the caller', async () => {
    const out = await selfSubjectReviewEndpoint().create(ctx(), '', {} as ApiObject);
    expect(out).toEqual({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.svc.io/v1',
      metadata: {},
      status: { userInfo: { username: 'alice', uid: 'u1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } } },
    });
  });
});

describe('TokenReview', () => {
  const tokens: TokenAuthenticator = {
    async authenticateToken(token, audiences) {
      if (token === 'good') return { user: { name: 'svc-user', groups: ['g'] }, audiences: [...(audiences ?? [])] };
      if (token === 'bad') throw new Error('token expired');
      return null;
    },
  };
  const endpoint = tokenReviewEndpoint({ tokenAuthenticator: tokens, apiAudiences: ['api'] });

  test('a good token: authenticated, the user with system:authenticated, the API audiences by default', async () => {
    const out = await endpoint.create(ctx(), '', { spec: { token: 'good' } } as ApiObject);
    expect(out).toMatchObject({ status: { authenticated: true, user: { username: 'svc-user', groups: ['g', 'system:authenticated'] }, audiences: ['api'] } });
  });
  test('requested audiences are passed through', async () => {
    const out = await endpoint.create(ctx(), '', { spec: { token: 'good', audiences: ['other'] } } as ApiObject);
    expect(out).toMatchObject({ status: { audiences: ['other'] } });
  });
  test.each([
    ['an invalid token reports the error', 'bad', { authenticated: false, error: 'token expired' }],
    ['an unknown token is just not authenticated', 'who', { authenticated: false }],
  ])('%s', async (_, token, status) => {
    const out = (await endpoint.create(ctx(), '', { spec: { token } } as ApiObject)) as { status: Record<string, unknown> };
    expect(out.status).toEqual(status);
  });
  test('a token is required', async () => {
    expect(await failure(endpoint.create(ctx(), '', { spec: {} } as ApiObject))).toBe('400 token is required for TokenReview in authentication');
  });
});
