// ValidatingAdmissionPolicy through the real server and kubectl: the example (service
// account names in team namespaces start with the team's prefix, kept in a ConfigMap param),
// upstream's exact denial, the Warn action's Warning, the Audit action's annotation, a compile
// error refused at write, and policy/param/binding changes applied without a restart.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiServerProcess, eventually, freePort, startCluster, type TestCluster } from './support/apiserver';
import { auditEventsOf } from './support/auditLog';
import { kubectlCreate, toYaml } from './support/rbac';

const api = 'admissionregistration.svc.io/v1';
const policiesPath = `/apis/${api}/validatingadmissionpolicies`;

const teamPrefixPolicy = {
  apiVersion: api,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'sa-prefix' },
  spec: {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConstraints: {
      resourceRules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }],
      namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Exists' }] },
    },
    validations: [
      {
        expression: 'object.metadata.name.startsWith(params.data.prefix)',
        messageExpression: "'service account names in ' + object.metadata.namespace + ' must start with ' + params.data.prefix",
      },
    ],
  },
};

const teamPrefixBinding = {
  apiVersion: api,
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'sa-prefix-binding' },
  spec: { policyName: 'sa-prefix', paramRef: { name: 'team-config', parameterNotFoundAction: 'Deny' }, validationActions: ['Deny'] },
};

const shortNamesPolicy = {
  apiVersion: api,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'short-names' },
  spec: {
    matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
    validations: [{ expression: 'object.metadata.name.size() <= 10', message: 'config map names should be short' }],
    auditAnnotations: [{ key: 'created-by', valueExpression: "request.userInfo.username + ' created ' + object.metadata.name" }],
  },
};

const shortNamesBinding = {
  apiVersion: api,
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'short-names-warn' },
  spec: { policyName: 'short-names', validationActions: ['Warn', 'Audit'] },
};

describe('ValidatingAdmissionPolicy', () => {
  let c: TestCluster;
  let dir: string;
  let logPath: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-vap-'));
    logPath = join(dir, 'audit.log');
    writeFileSync(join(dir, 'policy.yaml'), 'apiVersion: audit.svc.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: Metadata\n');
    c = await startCluster([`--audit-log-path=${logPath}`, `--audit-policy-file=${join(dir, 'policy.yaml')}`]);
    await kubectlCreate(c.apiserver, [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { team: 'a' } } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'scratch' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'team-config', namespace: 'team-a' }, data: { prefix: 'a-' } },
      teamPrefixPolicy,
      teamPrefixBinding,
      shortNamesPolicy,
      shortNamesBinding,
    ]);
  }, 60_000);
  afterAll(async () => {
    await c?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const denial = (ns: string, name: string, prefix: string): string =>
    `serviceaccounts "${name}" is forbidden: ValidatingAdmissionPolicy 'sa-prefix' with binding 'sa-prefix-binding' denied request: service account names in ${ns} must start with ${prefix}`;

  test('a service account without the team prefix is refused with upstream wording (422 Invalid)', async () => {
    const r = await eventually(async () => {
      const res = await c.apiserver.request('POST', '/api/v1/namespaces/team-a/serviceaccounts', { body: { metadata: { name: 'robot' } } });
      return res.status === 201 ? undefined : res;
    });
    expect(r.status).toBe(422);
    expect(r.json()).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: denial('team-a', 'robot', 'a-'),
      details: { name: 'robot', kind: 'serviceaccounts', causes: [{ message: denial('team-a', 'robot', 'a-').replace('serviceaccounts "robot" is forbidden: ', '') }] },
    });
    const k = await c.apiserver.kubectl(['create', 'serviceaccount', 'robot2', '-n', 'team-a']);
    expect(k.code).not.toBe(0);
    expect(k.stderr).toContain(denial('team-a', 'robot2', 'a-'));
    const metrics = (await c.apiserver.request('GET', '/metrics')).body.split('\n');
    const denied = metrics.find(
      (l) => l.startsWith('apiserver_validating_admission_policy_check_total{') && l.includes('policy="sa-prefix"') && l.includes('policy_binding="sa-prefix-binding"') && l.includes('enforcement_action="deny"') && l.includes('error_type="no_error"'),
    );
    expect(Number(denied?.split(' ').pop())).toBeGreaterThanOrEqual(2);
    expect(metrics.some((l) => l.startsWith('apiserver_validating_admission_policy_check_duration_seconds_bucket{') && l.includes('policy="sa-prefix"'))).toBe(true);
  });

  test('names with the prefix, and namespaces without a team label, are admitted', async () => {
    expect((await c.apiserver.kubectl(['create', 'serviceaccount', 'a-robot', '-n', 'team-a'])).code).toBe(0);
    expect((await c.apiserver.kubectl(['create', 'serviceaccount', 'robot', '-n', 'scratch'])).code).toBe(0);
  });

  test('a team namespace without its ConfigMap is refused (parameterNotFoundAction Deny)', async () => {
    await kubectlCreate(c.apiserver, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b', labels: { team: 'b' } } }]);
    const k = await c.apiserver.kubectl(['create', 'serviceaccount', 'b-robot', '-n', 'team-b']);
    expect(k.code).not.toBe(0);
    expect(k.stderr).toContain(
      "ValidatingAdmissionPolicy 'sa-prefix' with binding 'sa-prefix-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
  });

  test('a param change applies without a restart', async () => {
    const patch = await c.apiserver.kubectl(['patch', 'configmap', 'team-config', '-n', 'team-a', '--type=merge', '-p', '{"data":{"prefix":"team-a-"}}']);
    expect(patch.code).toBe(0);
    await eventually(async () => {
      const r = await c.apiserver.request('POST', '/api/v1/namespaces/team-a/serviceaccounts', { body: { metadata: { name: 'a-later' } } });
      return r.status === 422 && r.json<{ message: string }>().message === denial('team-a', 'a-later', 'team-a-');
    });
    expect((await c.apiserver.kubectl(['create', 'serviceaccount', 'team-a-robot', '-n', 'team-a'])).code).toBe(0);
  });

  test('Warn answers with a Warning header (kubectl prints it) and Audit annotates the audit event', async () => {
    const k = await eventually(async () => {
      const out = await c.apiserver.kubectl(['create', 'configmap', 'a-rather-long-name', '-n', 'scratch']);
      return out.stderr.includes('Warning:') ? out : undefined;
    });
    expect(k.code).toBe(0);
    expect(k.stderr).toContain("Warning: Validation failed for ValidatingAdmissionPolicy 'short-names' with binding 'short-names-warn': config map names should be short");

    const r = await c.apiserver.request('POST', '/api/v1/namespaces/scratch/configmaps', { body: { metadata: { name: 'another-long-name' } } });
    expect(r.status).toBe(201);
    expect(r.headers.warning).toBe(`299 - "Validation failed for ValidatingAdmissionPolicy 'short-names' with binding 'short-names-warn': config map names should be short"`);
    const events = await auditEventsOf(logPath, String(r.headers['audit-id']));
    const done = events.find((e) => e.stage === 'ResponseComplete');
    expect(JSON.parse(done?.annotations?.['validation.policy.admission.svc.io/validation_failure'] ?? 'null')).toEqual([
      { message: 'config map names should be short', policy: 'short-names', binding: 'short-names-warn', expressionIndex: 0, validationActions: ['Warn', 'Audit'] },
    ]);
    expect(done?.annotations?.['short-names/created-by']).toBe('admin created another-long-name');
    const short = await c.apiserver.request('POST', '/api/v1/namespaces/scratch/configmaps', { body: { metadata: { name: 'short' } } });
    expect(short.status).toBe(201);
    expect(short.headers.warning).toBeUndefined();
  });

  test('an expression that does not compile is a 422 naming spec.validations[i].expression', async () => {
    const bad = { ...teamPrefixPolicy, metadata: { name: 'broken' }, spec: { ...teamPrefixPolicy.spec, validations: [{ expression: 'true' }, { expression: 'object.metadata.name.startsWith(' }] } };
    const r = await c.apiserver.request('POST', policiesPath, { body: bad });
    expect(r.status).toBe(422);
    const status = r.json<{ reason: string; message: string; details: { causes: { reason: string; field: string; message: string }[] } }>();
    expect(status.reason).toBe('Invalid');
    expect(status.message).toMatch(/^ValidatingAdmissionPolicy\.admissionregistration\.svc\.io "broken" is invalid: spec\.validations\[1\]\.expression: Invalid value: "object\.metadata\.name\.startsWith\(": compilation failed: /);
    expect(status.details.causes).toEqual([expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec.validations[1].expression' })]);

    const k = await c.apiserver.kubectl(['create', '-f', '-'], { input: toYaml([bad]) });
    expect(k.code).not.toBe(0);
    expect(k.stderr).toContain('spec.validations[1].expression: Invalid value: "object.metadata.name.startsWith(": compilation failed');
  });

  test('regular expressions run in linear time: a value that backtracks for hours in JavaScript is judged at once, /livez answers meanwhile', async () => {
    await kubectlCreate(c.apiserver, [
      {
        apiVersion: api,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'hostile-regex' },
        spec: {
          matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
          matchConditions: [{ name: 'regex-only', expression: "object.metadata.name.startsWith('regex-')" }],
          validations: [
            { expression: "object.data.v.matches('^(a+)+$')", message: 'v must be a run of a' },
            { expression: "object.data.v.find('^([a-z0-9]+)+$') == ''", message: 'found' },
          ],
        },
      },
      { apiVersion: api, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'hostile-regex' }, spec: { policyName: 'hostile-regex', validationActions: ['Deny'] } },
    ]);
    // 2^40 backtracking steps for a JavaScript RegExp; RE2 reads it once.
    const v = `${'a'.repeat(40)}!`;
    const [denied, livez] = await Promise.all([
      eventually(async () => {
        const res = await c.apiserver.request('POST', '/api/v1/namespaces/scratch/configmaps', { body: { metadata: { name: 'regex-hostile' }, data: { v } } });
        return res.status === 201 ? undefined : res;
      }),
      c.apiserver.request('GET', '/livez'),
    ]);
    expect(livez.status).toBe(200);
    expect(denied.json<{ message: string }>().message).toBe(
      `configmaps "regex-hostile" is forbidden: ValidatingAdmissionPolicy 'hostile-regex' with binding 'hostile-regex' denied request: v must be a run of a`,
    );
    expect((await c.apiserver.kubectl(['delete', 'validatingadmissionpolicybinding', 'hostile-regex'])).code).toBe(0);
    expect((await c.apiserver.kubectl(['delete', 'validatingadmissionpolicy', 'hostile-regex'])).code).toBe(0);
  });

  test('a regular expression RE2 refuses (lookahead) is refused at write with cel-go\'s check issue', async () => {
    const bad = { ...shortNamesPolicy, metadata: { name: 'lookahead' }, spec: { ...shortNamesPolicy.spec, validations: [{ expression: "object.metadata.name.matches('^(?=a)')" }] } };
    const r = await c.apiserver.request('POST', policiesPath, { body: bad });
    expect(r.status).toBe(422);
    expect(r.json<{ message: string }>().message).toBe(
      'ValidatingAdmissionPolicy.admissionregistration.svc.io "lookahead" is invalid: spec.validations[0].expression: Invalid value: "object.metadata.name.matches(\'^(?=a)\')": ' +
        "compilation failed: ERROR: <input>:1:30: invalid matches argument\n | object.metadata.name.matches('^(?=a)')\n | .............................^",
    );
  });

  test('a selector paramRef evaluates every labelled param in the namespace', async () => {
    await kubectlCreate(c.apiserver, [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'labels' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'need-app', namespace: 'labels', labels: { 'label-rule': 'yes' } }, data: { label: 'app' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'need-owner', namespace: 'labels', labels: { 'label-rule': 'yes' } }, data: { label: 'owner' } },
      {
        apiVersion: api,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'required-labels' },
        spec: {
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }] },
          validations: [{ expression: 'has(object.metadata.labels) && params.data.label in object.metadata.labels', messageExpression: "'missing label ' + params.data.label" }],
        },
      },
      {
        apiVersion: api,
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'required-labels' },
        spec: {
          policyName: 'required-labels',
          paramRef: { selector: { matchLabels: { 'label-rule': 'yes' } }, parameterNotFoundAction: 'Allow' },
          matchResources: { namespaceSelector: { matchLabels: { 'svc.io/metadata.name': 'labels' } } },
          validationActions: ['Deny'],
        },
      },
    ]);
    const r = await eventually(async () => {
      const res = await c.apiserver.request('POST', '/api/v1/namespaces/labels/serviceaccounts', { body: { metadata: { name: 'half', labels: { app: 'x' } } } });
      return res.status === 201 ? undefined : res;
    });
    expect(r.json<{ message: string }>().message).toBe(
      `serviceaccounts "half" is forbidden: ValidatingAdmissionPolicy 'required-labels' with binding 'required-labels' denied request: missing label owner`,
    );
    const ok = await c.apiserver.request('POST', '/api/v1/namespaces/labels/serviceaccounts', { body: { metadata: { name: 'full', labels: { app: 'x', owner: 'y' } } } });
    expect(ok.status).toBe(201);
  });

  test('namespaceObject is the request namespace as it is now: a label added later is seen', async () => {
    await kubectlCreate(c.apiserver, [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'nsobj' } },
      {
        apiVersion: api,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'gold-namespaces' },
        spec: {
          matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
          matchConditions: [{ name: 'nsobj-only', expression: "object.metadata.namespace == 'nsobj'" }],
          validations: [
            {
              expression: "has(namespaceObject.metadata.labels) && namespaceObject.metadata.labels.?tier.orValue('') == 'gold'",
              messageExpression: "'namespace ' + namespaceObject.metadata.name + ' is not gold'",
            },
          ],
        },
      },
      { apiVersion: api, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'gold-namespaces' }, spec: { policyName: 'gold-namespaces', validationActions: ['Deny'] } },
    ]);
    const denied = await eventually(async () => {
      const res = await c.apiserver.request('POST', '/api/v1/namespaces/nsobj/configmaps', { body: { metadata: { name: 'early' } } });
      return res.status === 201 ? undefined : res;
    });
    expect(denied.json<{ message: string }>().message).toBe(
      `configmaps "early" is forbidden: ValidatingAdmissionPolicy 'gold-namespaces' with binding 'gold-namespaces' denied request: namespace nsobj is not gold`,
    );
    const ns = (await c.apiserver.request('GET', '/api/v1/namespaces/nsobj')).json<{ metadata: { labels?: Record<string, string> } }>();
    const put = await c.apiserver.request('PUT', '/api/v1/namespaces/nsobj', { body: { ...ns, metadata: { ...ns.metadata, labels: { ...ns.metadata.labels, tier: 'gold' } } } });
    expect(put.status).toBe(200);
    const created = await eventually(async () => {
      const res = await c.apiserver.request('POST', '/api/v1/namespaces/nsobj/configmaps', { body: { metadata: { name: 'later' } } });
      return res.status === 201 ? res : undefined;
    });
    expect(created.status).toBe(201);
  });

  test('the authorizer variable is backed by RBAC: the requester may, a bare service account may not', async () => {
    await kubectlCreate(c.apiserver, [
      {
        apiVersion: api,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'authz' },
        spec: {
          matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
          matchConditions: [{ name: 'authz-only', expression: "object.metadata.name.startsWith('authz-')" }],
          validations: [
            { expression: "authorizer.requestResource.check('delete').allowed()", message: 'the requester may not delete it' },
            {
              expression: "authorizer.serviceAccount(object.metadata.namespace, 'nobody').group('').resource('configmaps').namespace(object.metadata.namespace).check('create').allowed()",
              messageExpression: "'nobody may not create it: ' + authorizer.serviceAccount(object.metadata.namespace, 'nobody').group('').resource('configmaps').namespace(object.metadata.namespace).check('create').reason()",
              reason: 'Forbidden',
            },
          ],
        },
      },
      { apiVersion: api, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'authz' }, spec: { policyName: 'authz', validationActions: ['Deny'] } },
    ]);
    const r = await eventually(async () => {
      const res = await c.apiserver.request('POST', '/api/v1/namespaces/scratch/configmaps', { body: { metadata: { name: `authz-${Date.now()}` } } });
      return res.status === 201 ? undefined : res;
    });
    expect(r.status).toBe(403);
    expect(r.json<{ message: string }>().message).toMatch(/ValidatingAdmissionPolicy 'authz' with binding 'authz' denied request: nobody may not create it:/);
    expect((await c.apiserver.request('POST', '/api/v1/namespaces/scratch/configmaps', { body: { metadata: { name: 'not-authz' } } })).status).toBe(201);
  });

  test('deleting the binding lifts the policy', async () => {
    expect((await c.apiserver.kubectl(['delete', 'validatingadmissionpolicybinding', 'sa-prefix-binding'])).code).toBe(0);
    await eventually(async () => (await c.apiserver.request('POST', '/api/v1/namespaces/team-a/serviceaccounts', { body: { metadata: { name: 'free' } } })).status === 201);
  });

  test('kubectl lists the policies', async () => {
    const k = await c.apiserver.kubectl(['get', 'validatingadmissionpolicies', '-o', 'name']);
    expect(k.code).toBe(0);
    expect(k.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'validatingadmissionpolicy.admissionregistration.svc.io/authz',
      'validatingadmissionpolicy.admissionregistration.svc.io/gold-namespaces',
      'validatingadmissionpolicy.admissionregistration.svc.io/required-labels',
      'validatingadmissionpolicy.admissionregistration.svc.io/sa-prefix',
      'validatingadmissionpolicy.admissionregistration.svc.io/short-names',
    ]);
    const table = await c.apiserver.kubectl(['get', 'validatingadmissionpolicies']);
    const rows = table.stdout.trim().split('\n').map((l) => l.split(/\s+/));
    expect(rows[0]).toEqual(['NAME', 'VALIDATIONS', 'PARAMKIND', 'AGE']);
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([
      ['authz', '2', '<unset>'],
      ['gold-namespaces', '1', '<unset>'],
      ['required-labels', '1', 'v1/ConfigMap'],
      ['sa-prefix', '1', 'v1/ConfigMap'],
      ['short-names', '1', '<unset>'],
    ]);
    const bindings = await c.apiserver.kubectl(['get', 'validatingadmissionpolicybindings']);
    const brows = bindings.stdout.trim().split('\n').map((l) => l.split(/\s+/));
    expect(brows[0]).toEqual(['NAME', 'POLICYNAME', 'PARAMREF', 'AGE']);
    expect(brows.slice(1).map((r) => r.slice(0, 3))).toEqual([
      ['authz', 'authz', '<unset>'],
      ['gold-namespaces', 'gold-namespaces', '<unset>'],
      ['required-labels', 'required-labels', 'label-rule=yes'],
      ['short-names-warn', 'short-names', '<unset>'],
    ]);
  });

  test('a binding naming a param without namespace prints "*/<name>"', async () => {
    await kubectlCreate(c.apiserver, [{ ...teamPrefixBinding, metadata: { name: 'sa-prefix-again' } }]);
    const k = await c.apiserver.kubectl(['get', 'validatingadmissionpolicybinding', 'sa-prefix-again', '--no-headers']);
    expect(k.stdout.split(/\s+/).slice(0, 3)).toEqual(['sa-prefix-again', 'sa-prefix', '*/team-config']);
  });
});

describe('a policy change on one replica', () => {
  let c: TestCluster;
  let b: ApiServerProcess;
  beforeAll(async () => {
    c = await startCluster();
    b = new ApiServerProcess(mkdtempSync(join(c.dir, 'replica-')), await freePort(), c.etcd.endpoint, [], join(c.dir, 'pki'));
    await b.start();
    await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'replicated' } } });
  }, 60_000);
  afterAll(async () => {
    await b?.stop();
    await c?.stop();
  });

  test('is enforced by the other replica, and so is its removal (through the watch, no restart)', async () => {
    const policy = {
      apiVersion: api,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'no-temp' },
      spec: {
        matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
        validations: [{ expression: "!object.metadata.name.startsWith('temp')", message: 'no temporary config maps', reason: 'Forbidden' }],
      },
    };
    const binding = { apiVersion: api, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'no-temp' }, spec: { policyName: 'no-temp', validationActions: ['Deny'] } };
    await kubectlCreate(c.apiserver, [policy, binding]);
    let n = 0;
    const r = await eventually(async () => {
      const res = await b.request('POST', '/api/v1/namespaces/replicated/configmaps', { body: { metadata: { name: `temp-${n++}` } } });
      return res.status === 201 ? undefined : res;
    });
    expect(r.status).toBe(403);
    expect(r.json()).toMatchObject({ reason: 'Forbidden', message: expect.stringContaining("ValidatingAdmissionPolicy 'no-temp' with binding 'no-temp' denied request: no temporary config maps") });

    expect((await c.apiserver.kubectl(['delete', 'validatingadmissionpolicy', 'no-temp'])).code).toBe(0);
    await eventually(async () => (await b.request('POST', '/api/v1/namespaces/replicated/configmaps', { body: { metadata: { name: `temp-after-${n++}` } } })).status === 201);
  });
});
