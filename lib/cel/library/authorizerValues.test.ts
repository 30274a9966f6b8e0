import { CelEnvironment } from '../environment';
import type { CelAuthorizer, CelResourceCheck } from './authorizer';
import { AuthorizerValue } from './authorizerValues';

// Allows get on pods in "default" and GET on /healthz; the service account may list secrets.
function fake(user = 'alice'): CelAuthorizer {
  return {
    checkResource: (c: CelResourceCheck) => {
      if (user.startsWith('system:serviceaccount:')) return { allowed: c.resource === 'secrets' && c.verb === 'list', reason: 'sa' };
      if (c.resource === 'boom') throw new Error('no way to decide');
      return { allowed: c.group === '' && c.resource === 'pods' && c.namespace === 'default' && c.verb === 'get' && c.subresource === '' , reason: `checked ${c.resource}/${c.subresource}:${c.name}` };
    },
    checkPath: (c) => ({ allowed: c.path === '/healthz' && c.verb === 'get', reason: '' }),
    forServiceAccount: (ns, name) => fake(`system:serviceaccount:${ns}:${name}`),
  };
}

const env = new CelEnvironment([{ name: 'authorizer', unescaped: true }]);
const authorizer = new AuthorizerValue(fake(), { group: '', resource: 'pods', subresource: '', namespace: 'default', name: 'p1' });

describe('authorizer library (upstream authz.go)', () => {
  it.each<[string, unknown]>([
    ["authorizer.group('').resource('pods').namespace('default').check('get').allowed()", true],
    ["authorizer.group('').resource('pods').namespace('other').check('get').allowed()", false],
    ["authorizer.group('').resource('pods').subresource('log').namespace('default').check('get').allowed()", false],
    ["authorizer.group('').resource('pods').namespace('default').name('x').check('get').reason()", 'checked pods/:x'],
    ["authorizer.path('/healthz').check('get').allowed()", true],
    ["authorizer.path('/metrics').check('get').allowed()", false],
    ["authorizer.serviceAccount('ns', 'robot').group('').resource('secrets').check('list').allowed()", true],
    ["authorizer.requestResource.check('get').allowed()", true],
    ["authorizer.requestResource.check('delete').allowed()", false],
    ["authorizer.group('').resource('boom').check('get').errored()", true],
    ["authorizer.group('').resource('pods').namespace('default').fieldSelector('spec.nodeName=n1').labelSelector('app=x').check('get').reason()", 'checked pods/:'],
    ["authorizer.group('').resource('boom').check('get').error()", 'no way to decide'],
  ])('%s → %p', (expression, want) => {
    const c = env.compile(expression);
    expect(c.error).toBeUndefined();
    const r = c.program!.evaluate({ authorizer });
    expect(r).toMatchObject({ ok: true, value: want });
  });

  it('hands the selectors to the authorizer as written', () => {
    const seen: CelResourceCheck[] = [];
    const spy: CelAuthorizer = { ...fake(), checkResource: (c) => (seen.push(c), { allowed: true, reason: '' }) };
    const a = new AuthorizerValue(spy);
    env.compile("authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n1').labelSelector('app in (x)').check('list').allowed()").program!.evaluate({ authorizer: a });
    expect(seen).toEqual([{ group: '', resource: 'pods', subresource: '', namespace: '', name: '', fieldSelector: 'spec.nodeName=n1', labelSelector: 'app in (x)', verb: 'list' }]);
  });

  it('a check costs 350,000: three in one expression pass the per-expression limit', () => {
    const check = "authorizer.path('/healthz').check('get').allowed()";
    const two = env.compile(`${check} && ${check}`).program!.evaluate({ authorizer });
    expect(two.ok).toBe(true);
    const three = env.compile(`${check} && ${check} && ${check}`).program!.evaluate({ authorizer });
    expect(three).toMatchObject({ ok: false, costExceeded: true });
  });
});
