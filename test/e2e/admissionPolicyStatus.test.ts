// The ValidatingAdmissionPolicy status controller running in the apiserver (upstream's
// validatingadmissionpolicy-status): expressions type-checked against the matched kinds'
// schemas land in status.typeChecking.expressionWarnings with status.observedGeneration,
// written through /status; a spec change is checked again. And the kind's schema at
// evaluation: a set-typed list (metadata.finalizers) compares ignoring order (§4.10.5). And the
// Kubernetes libraries (quantity, ip/cidr, url, format) in policies served by the real process.
import { eventually, startCluster, type TestCluster } from './support/apiserver';
import { kubectlCreate, toYaml } from './support/rbac';

const api = 'admissionregistration.svc.io/v1';
const policyPath = `/apis/${api}/validatingadmissionpolicies/typos`;

interface PolicyStatus {
  metadata: { generation: number; managedFields?: { manager: string; operation: string; subresource?: string }[] };
  status?: { observedGeneration?: number; typeChecking?: { expressionWarnings?: { fieldRef: string; warning: string }[] } };
}

const typos = (validations: { expression: string; messageExpression?: string }[]) => ({
  apiVersion: api,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'typos' },
  spec: {
    matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }] },
    validations,
  },
});

describe('ValidatingAdmissionPolicy status and typed values', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);
  afterAll(async () => {
    await c?.stop();
  });

  test('type-checking warnings and observedGeneration are written through /status, and again after a spec change', async () => {
    await kubectlCreate(c.apiserver, [
      typos([
        { expression: "object.metadata.nme == 'x'" },
        { expression: 'object.automountServiceAccountToken == 1', messageExpression: "'name: ' + object.metadata.name" },
      ]),
    ]);
    const p = await eventually(async () => {
      const r = await c.apiserver.request('GET', policyPath);
      const o = r.json<PolicyStatus>();
      return o.status?.observedGeneration === 1 ? o : undefined;
    });
    expect(p.status?.typeChecking?.expressionWarnings).toEqual([
      { fieldRef: 'spec.validations[0].expression', warning: "/v1, Kind=ServiceAccount: ERROR: <input>:1:16: undefined field 'nme'\n | object.metadata.nme == 'x'\n | ...............^\n" },
      {
        fieldRef: 'spec.validations[1].expression',
        warning: "/v1, Kind=ServiceAccount: ERROR: <input>:1:37: found no matching overload for '_==_' applied to '(bool, int)'\n | object.automountServiceAccountToken == 1\n | ....................................^\n",
      },
    ]);
    expect(p.metadata.managedFields?.find((m) => m.manager === 'validatingadmissionpolicy-status')).toMatchObject({ subresource: 'status' });

    const k = await c.apiserver.kubectl(['get', 'validatingadmissionpolicy', 'typos', '-o', 'jsonpath={.status.typeChecking.expressionWarnings[*].fieldRef}']);
    expect(k.stdout).toBe('spec.validations[0].expression spec.validations[1].expression');

    const fixed = typos([{ expression: "object.metadata.name == 'x'" }]);
    const applied = await c.apiserver.kubectl(['apply', '-f', '-'], { input: toYaml([fixed]) });
    expect(applied.code).toBe(0);
    const p2 = await eventually(async () => {
      const o = (await c.apiserver.request('GET', policyPath)).json<PolicyStatus>();
      return o.status?.observedGeneration === 2 ? o : undefined;
    });
    expect(p2.metadata.generation).toBe(2);
    expect(p2.status?.typeChecking).toEqual({});
  });

  test('a policy comparing metadata.finalizers (a set list) ignores order', async () => {
    await kubectlCreate(c.apiserver, [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sets' } },
      {
        apiVersion: api,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'finalizer-set' },
        spec: {
          matchConstraints: {
            resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }],
            namespaceSelector: { matchLabels: { 'svc.io/metadata.name': 'sets' } },
          },
          validations: [{ expression: "!has(object.metadata.finalizers) || object.metadata.finalizers == ['svc.io/a', 'svc.io/b']", message: 'finalizers must be a and b' }],
        },
      },
      { apiVersion: api, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'finalizer-set' }, spec: { policyName: 'finalizer-set', validationActions: ['Deny'] } },
    ]);
    const denied = await eventually(async () => {
      const r = await c.apiserver.request('POST', '/api/v1/namespaces/sets/serviceaccounts', { body: { metadata: { name: 'one', finalizers: ['svc.io/a'] } } });
      return r.status === 201 ? undefined : r;
    });
    expect(denied.json<{ message: string }>().message).toContain("denied request: finalizers must be a and b");
    const reversed = await c.apiserver.request('POST', '/api/v1/namespaces/sets/serviceaccounts', { body: { metadata: { name: 'two', finalizers: ['svc.io/b', 'svc.io/a'] } } });
    expect(reversed.status).toBe(201);
  });

  test('quantity, ip, url and format work in a policy served over HTTPS and kubectl', async () => {
    await kubectlCreate(c.apiserver, [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'libs' } },
      {
        apiVersion: api,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'config-values' },
        spec: {
          matchConstraints: {
            resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
            namespaceSelector: { matchLabels: { 'svc.io/metadata.name': 'libs' } },
          },
          validations: [
            { expression: "!has(object.data.limit) || (isQuantity(object.data.limit) && quantity(object.data.limit).isLessThan(quantity('1Gi')))", message: 'limit must be a quantity under 1Gi' },
            { expression: "!has(object.data.server) || (isIP(object.data.server) && cidr('10.0.0.0/8').containsIP(object.data.server))", message: 'server must be in 10.0.0.0/8' },
            { expression: "!has(object.data.endpoint) || (isURL(object.data.endpoint) && url(object.data.endpoint).getScheme() == 'https')", message: 'endpoint must be https' },
            { expression: "!has(object.data.owner) || !format.dns1123Label().validate(object.data.owner).hasValue()", messageExpression: "format.dns1123Label().validate(object.data.owner).value()[0]" },
          ],
        },
      },
      { apiVersion: api, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'config-values' }, spec: { policyName: 'config-values', validationActions: ['Deny'] } },
    ]);
    const create = (name: string, data: Record<string, string>) =>
      c.apiserver.request('POST', '/api/v1/namespaces/libs/configmaps', { body: { metadata: { name }, data } });
    const big = await eventually(async () => {
      const r = await create('big', { limit: '2Gi' });
      return r.status === 201 ? undefined : r;
    });
    expect(big.json<{ message: string }>().message).toContain('denied request: limit must be a quantity under 1Gi');
    expect((await create('small', { limit: '512Mi', server: '10.1.2.3', endpoint: 'https://example.com/x', owner: 'team-a' })).status).toBe(201);
    expect((await create('outside', { server: '192.168.0.1' })).json<{ message: string }>().message).toContain('server must be in 10.0.0.0/8');
    expect((await create('plain', { endpoint: 'http://example.com' })).json<{ message: string }>().message).toContain('endpoint must be https');
    const k = await c.apiserver.kubectl(['create', 'configmap', 'owner', '-n', 'libs', '--from-literal=owner=Team_A']);
    expect(k.code).not.toBe(0);
    expect(k.stderr).toContain("denied request: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'");
  });
});
