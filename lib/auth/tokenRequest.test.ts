// serviceaccounts/{name}/token: defaults, limits, name checks and what is issued.
import type { ApiObject } from '../api';
import { errors, isApiError } from '../machinery/errors';
import type { RequestContext } from '../registry/strategy';
import { IssueTokenRequest, tokenRequestEndpoint } from './tokenRequest';

const ctx = (dryRun = false): RequestContext => ({ user: { name: 'admin', groups: [] }, namespace: 'team', subresource: 'token', dryRun, now: () => new Date() });

function setup(max = 0): { issued: IssueTokenRequest[]; endpoint: ReturnType<typeof tokenRequestEndpoint> } {
  const issued: IssueTokenRequest[] = [];
  const endpoint = tokenRequestEndpoint({
    apiAudiences: ['https://api'],
    maxExpirationSeconds: max,
    getServiceAccount: async (_ctx, namespace, name) => {
      if (name !== 'bot') throw errors.notFound({ group: '', resource: 'serviceaccounts' }, name);
      return { metadata: { uid: `uid-of-${namespace}-${name}` } };
    },
    issue: async (req) => {
      issued.push(req);
      return { token: 'jwt', expirationTimestamp: new Date(Date.UTC(2030, 0, 1)) };
    },
  });
  return { issued, endpoint };
}

async function outcome(p: Promise<ApiObject>): Promise<ApiObject | string> {
  try {
    return await p;
  } catch (e) {
    if (isApiError(e)) return `${e.code} ${e.message}`;
    throw e;
  }
}

describe('TokenRequest', () => {
  test('defaults: an hour, the API audiences, the ServiceAccount\'s uid', async () => {
    const { issued, endpoint } = setup();
    const out = await endpoint.create(ctx(), 'bot', { spec: {} } as ApiObject);
    expect(issued).toEqual([{ serviceAccount: { namespace: 'team', name: 'bot', uid: 'uid-of-team-bot' }, audiences: ['https://api'], expirationSeconds: 3600, boundObject: undefined }]);
    expect(out).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.svc.io/v1',
      metadata: { name: 'bot', namespace: 'team' },
      spec: { audiences: ['https://api'], expirationSeconds: 3600 },
      status: { token: 'jwt', expirationTimestamp: '2030-01-01T00:00:00Z' },
    });
  });

  test('requested audiences and lifetime are kept; the server cap applies', async () => {
    const { issued, endpoint } = setup(1200);
    await endpoint.create(ctx(), 'bot', { spec: { audiences: ['vault'], expirationSeconds: 7200 } } as ApiObject);
    expect(issued[0]).toMatchObject({ audiences: ['vault'], expirationSeconds: 1200 });
  });

  test.each([
    [{ spec: { expirationSeconds: 599 } }, '422 TokenRequest.authentication.svc.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes'],
    [{ spec: { expirationSeconds: 2 ** 32 + 1 } }, '422 TokenRequest.authentication.svc.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds'],
    [{ metadata: { name: 'other' }, spec: {} }, '422 TokenRequest.authentication.svc.io "bot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified'],
    [{ metadata: { namespace: 'x' }, spec: {} }, '422 TokenRequest.authentication.svc.io "bot" is invalid: metadata.namespace: Invalid value: "x": must match the service account namespace if specified'],
    [{ spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'c' } } }, '400 cannot bind token for serviceaccount "bot" to object of kind "v1, Kind=ConfigMap"'],
  ])('refuses %j', async (body, text) => {
    const { issued, endpoint } = setup();
    expect(await outcome(endpoint.create(ctx(), 'bot', body as ApiObject))).toBe(text);
    expect(issued).toEqual([]);
  });

  test('a missing ServiceAccount is 404', async () => {
    expect(await outcome(setup().endpoint.create(ctx(), 'ghost', { spec: {} } as ApiObject))).toBe('404 serviceaccounts "ghost" not found');
  });

  test('a bound object is passed to the issuer', async () => {
    const { issued, endpoint } = setup();
    await endpoint.create(ctx(), 'bot', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'pu' } } } as ApiObject);
    expect(issued[0].boundObject).toEqual({ kind: 'Pod', name: 'p', uid: 'pu' });
  });

  test('a dry run issues nothing', async () => {
    const { issued, endpoint } = setup();
    const out = await endpoint.create(ctx(true), 'bot', { spec: {} } as ApiObject);
    expect(issued).toEqual([]);
    expect(out).toMatchObject({ status: {} });
  });
});
