// A deprecated version through the real process (spec §6.6): admissionregistration.svc.io/v1beta1,
// served only with --runtime-config, answers with upstream's Warning header, the audit annotations
// svc.io/deprecated and svc.io/removed-release, and apiserver_requested_deprecated_apis on /metrics;
// the same objects are read through v1 without any of that.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type TestCluster } from './support/apiserver';
import { auditEventsOf } from './support/auditLog';

const group = 'admissionregistration.svc.io';
const beta = `/apis/${group}/v1beta1/validatingadmissionpolicies`;
const v1 = `/apis/${group}/v1/validatingadmissionpolicies`;
const warning = `299 - "${group}/v1beta1 ValidatingAdmissionPolicy is deprecated in v1.31+, unavailable in v1.34+; use ${group}/v1 ValidatingAdmissionPolicy"`;

const policy = (name: string, apiVersion: string) => ({
  apiVersion,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: {
    matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
    validations: [{ expression: 'true' }],
  },
});

describe('admissionregistration.svc.io/v1beta1 off by default', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);
  afterAll(async () => {
    await c?.stop();
  });

  test('v1beta1 is 404 and absent from discovery; v1 is served', async () => {
    expect((await c.apiserver.request('GET', beta)).status).toBe(404);
    expect((await c.apiserver.request('GET', v1)).status).toBe(200);
    const g = (await c.apiserver.request('GET', `/apis/${group}`)).json<{ versions: { version: string }[]; preferredVersion: { version: string } }>();
    expect(g.versions.map((v) => v.version)).toEqual(['v1']);
  });
});

describe(`--runtime-config=${group}/v1beta1=true`, () => {
  let c: TestCluster;
  let dir: string;
  let logPath: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-deprecation-'));
    logPath = join(dir, 'audit.log');
    writeFileSync(join(dir, 'policy.yaml'), 'apiVersion: audit.svc.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: Metadata\n');
    c = await startCluster([`--runtime-config=${group}/v1beta1=true`, `--audit-log-path=${logPath}`, `--audit-policy-file=${join(dir, 'policy.yaml')}`]);
  }, 60_000);
  afterAll(async () => {
    await c?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('discovery lists both versions, v1 preferred', async () => {
    const g = (await c.apiserver.request('GET', `/apis/${group}`)).json<{ versions: { version: string }[]; preferredVersion: { version: string } }>();
    expect(g.versions.map((v) => v.version)).toEqual(['v1', 'v1beta1']);
    expect(g.preferredVersion.version).toBe('v1');
  });

  test('a create through v1beta1 warns, is annotated in the audit log, and sets the gauge', async () => {
    const r = await c.apiserver.request('POST', beta, { body: policy('beta-made', `${group}/v1beta1`) });
    expect(r.status).toBe(201);
    expect(r.json()).toMatchObject({ apiVersion: `${group}/v1beta1`, kind: 'ValidatingAdmissionPolicy', spec: { failurePolicy: 'Fail' } });
    expect(r.headers.warning).toBe(warning);

    const events = await auditEventsOf(logPath, String(r.headers['audit-id']));
    const done = events.find((e) => e.stage === 'ResponseComplete');
    expect(done?.annotations).toMatchObject({ 'svc.io/deprecated': 'true', 'svc.io/removed-release': '1.34' });

    const metrics = (await c.apiserver.request('GET', '/metrics')).body;
    expect(metrics).toContain(
      `apiserver_requested_deprecated_apis{group="${group}",version="v1beta1",resource="validatingadmissionpolicies",subresource="",removed_release="1.34"} 1`,
    );
  });

  test('the same object is read through v1 (one storage), without a warning', async () => {
    const r = await c.apiserver.request('GET', `${v1}/beta-made`);
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({ apiVersion: `${group}/v1`, metadata: { name: 'beta-made', generation: 1 } });
    expect(r.headers.warning).toBeUndefined();
    const back = await c.apiserver.request('GET', `${beta}/beta-made`);
    expect(back.json()).toMatchObject({ apiVersion: `${group}/v1beta1` });
    expect(back.headers.warning).toBe(warning);
  });

  test('kubectl create -f of a v1beta1 manifest succeeds (client-side validation finds the kind) and warns', async () => {
    const r = await c.apiserver.kubectl(['create', '-f', '-'], { input: JSON.stringify(policy('from-kubectl', `${group}/v1beta1`)) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Warning: ${group}/v1beta1 ValidatingAdmissionPolicy is deprecated in v1.31+`);
    expect((await c.apiserver.request('GET', `${v1}/from-kubectl`)).status).toBe(200);
  });

  test('kubectl sees the warning on the deprecated version', async () => {
    const r = await c.apiserver.kubectl(['get', `validatingadmissionpolicies.v1beta1.${group}`]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Warning: ${group}/v1beta1 ValidatingAdmissionPolicy is deprecated in v1.31+, unavailable in v1.34+; use ${group}/v1 ValidatingAdmissionPolicy`);
    expect(r.stdout).toContain('beta-made');
  });
});
