// The process itself: flags, TLS and authentication, health, discovery, version, metrics,
// negotiation and compression.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as https from 'node:https';
import { ApiServerProcess, eventually, freePort, repoRoot, startCluster, TestCluster } from './support/apiserver';
import { makeCsr, signWithCa } from './support/openssl';

function runBinary(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [join(repoRoot, 'bin/svc-apiserver'), ...args], { timeout: 20_000 }, (err, stdout, stderr) => {
      res({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('flags', () => {
  test('--help lists the upstream flag names', async () => {
    const r = await runBinary(['--help']);
    expect(r.code).toBe(0);
    for (const f of ['--etcd-servers', '--etcd-prefix', '--storage-backend', '--bind-address', '--secure-port', '--cert-dir', '--client-ca-file', '--tls-cert-file', '--tls-private-key-file', '--write-kubeconfig', '--feature-gates', '--runtime-config', '--etcd-compaction-interval']) {
      expect(r.stdout).toContain(f);
    }
  });
  test.each([
    [['--nope'], 'unknown flag: --nope'],
    [['--secure-port=x'], 'invalid argument "x" for "--secure-port" flag'],
    [['--storage-backend=sqlite'], 'invalid --storage-backend'],
    [['--feature-gates=Bogus=true'], 'unrecognized feature gate: Bogus'],
    // Upstream's --runtime-config messages (APIEnablementOptions.Validate, MergeAPIResourceConfigs).
    [['--runtime-config=nope.svc.io/v1=true'], 'unknown api groups nope.svc.io'],
    [['--runtime-config=certificates.svc.io/v2=false'], 'group version certificates.svc.io/v2 that has not been registered'],
    [['--runtime-config=certificates.svc.io/v1=maybe'], 'invalid value of certificates.svc.io/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'],
    [['--runtime-config=api/all=false'], 'invalid key with only api/all=false'],
    [['--etcd-compaction-interval=often'], 'time: invalid duration'],
    [['--max-watch-unsent-bytes=0'], '--max-watch-unsent-bytes must be a positive number of bytes'],
  ])('%j exits non-zero with a clear message', async (args, msg) => {
    const r = await runBinary(args);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(msg);
  });
});

describe('running server', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startCluster();
  });
  afterAll(async () => {
    await c?.stop();
  });

  // system:public-info-viewer lets everyone read the top-level checks; the per-check paths need
  // an authenticated user (system:monitoring or more), as upstream.
  test.each([
    ['/livez', true, 200, 'ok'],
    ['/readyz', true, 200, 'ok'],
    ['/healthz', true, 200, 'ok'],
    ['/readyz/etcd', false, 200, 'ok'],
    ['/livez/ping', false, 200, 'ok'],
  ])('%s (anonymous: %s) → %d %s', async (path, anonymous, code, body) => {
    const r = await c.apiserver.request('GET', path, { anonymous });
    expect(r.status).toBe(code);
    expect(r.body).toBe(body);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  test('anonymous requests may not read individual checks', async () => {
    const r = await c.apiserver.request('GET', '/readyz/etcd', { anonymous: true });
    expect(r.status).toBe(403);
    expect(r.json<{ message: string }>().message).toBe('forbidden: User "system:anonymous" cannot get path "/readyz/etcd"');
  });

  test('verbose and exclude', async () => {
    const r = await c.apiserver.request('GET', '/readyz?verbose&exclude=etcd', { anonymous: true });
    expect(r.status).toBe(200);
    expect(r.body).toContain('[+]ping ok\n');
    expect(r.body).toContain('[+]etcd excluded: ok\n');
    expect(r.body).toContain('[+]poststarthook/start-system-namespaces-controller ok\n');
    expect(r.body.endsWith('readyz check passed\n')).toBe(true);
  });

  test('readyz fails while etcd is down, and recovers', async () => {
    await c.etcd.kill();
    try {
      const r = await c.apiserver.request('GET', '/readyz', { anonymous: true });
      expect(r.status).toBe(500);
      expect(r.body).toContain('[-]etcd failed: reason withheld');
      // A request waits for etcd until its deadline (a short ?timeout= here), then 504 as upstream.
      const api = await c.apiserver.request('GET', '/api/v1/namespaces?timeout=1s');
      expect(api.status).toBe(504);
      expect(api.json()).toMatchObject({ kind: 'Status', reason: 'Timeout', message: 'Timeout: request did not complete within requested timeout - context deadline exceeded' });
    } finally {
      await c.etcd.restart();
    }
    const deadline = Date.now() + 15_000;
    for (;;) {
      const r = await c.apiserver.request('GET', '/readyz', { anonymous: true });
      if (r.status === 200) break;
      if (Date.now() > deadline) throw new Error(`not ready again: ${r.body}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  });

  test('/version', async () => {
    const r = await c.apiserver.request('GET', '/version', { anonymous: true });
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({ major: '1', minor: expect.any(String), gitVersion: expect.any(String), platform: expect.any(String) });
  });

  test('discovery documents', async () => {
    // Discovery is for authenticated users (system:discovery), as upstream since 1.14.
    expect((await c.apiserver.request('GET', '/api', { anonymous: true })).status).toBe(403);
    const api = await c.apiserver.request('GET', '/api');
    expect(api.json()).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const apis = await c.apiserver.request('GET', '/apis');
    const groupList = apis.json<{ kind: string; groups: { name: string; preferredVersion: { groupVersion: string } }[] }>();
    expect(groupList.kind).toBe('APIGroupList');
    expect(groupList.groups.map((g) => g.preferredVersion.groupVersion).sort()).toEqual([
      'admissionregistration.svc.io/v1',
      'apiextensions.svc.io/v1',
      'authentication.svc.io/v1',
      'authorization.svc.io/v1',
      'certificates.svc.io/v1',
      'coordination.svc.io/v1',
      'rbac.authorization.svc.io/v1',
    ]);
    const certs = await c.apiserver.request('GET', '/apis/certificates.svc.io/v1');
    expect(certs.json<{ resources: { name: string; verbs: string[] }[] }>().resources.map((r) => r.name)).toEqual([
      'certificatesigningrequests',
      'certificatesigningrequests/approval',
      'certificatesigningrequests/status',
    ]);
    const core = await c.apiserver.request('GET', '/api/v1');
    const sa = core.json<{ resources: { name: string; shortNames?: string[]; namespaced: boolean }[] }>().resources.find((r) => r.name === 'serviceaccounts');
    expect(sa).toMatchObject({ shortNames: ['sa'], namespaced: true });
    expect((await c.apiserver.request('GET', '/apis/policy/v1beta1')).status).toBe(404);
  });

  test('anonymous users reach only health, version and discovery', async () => {
    const r = await c.apiserver.request('GET', '/api/v1/namespaces', { anonymous: true });
    expect(r.status).toBe(403);
    expect(r.json<{ message: string }>().message).toBe(
      'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
    const m = await c.apiserver.request('GET', '/metrics', { anonymous: true });
    expect(m.status).toBe(403);
  });

  test('a client certificate from another CA → 401', async () => {
    // Inside the cluster's directory, which its stop() removes.
    const dir = mkdtempSync(join(c.dir, 'otherca-'));
    const { execFileSync } = await import('node:child_process');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=other-ca', '-keyout', join(dir, 'ca.key'), '-out', join(dir, 'ca.crt'), '-days', '1'], { stdio: 'ignore' });
    const made = makeCsr('ecdsa', '/CN=intruder/O=system:masters');
    const cert = signWithCa(made.csrPem, join(dir, 'ca.crt'), join(dir, 'ca.key'));
    const r = await c.apiserver.request('GET', '/api/v1/namespaces', { cert: { cert, key: made.keyPem } });
    expect(r.status).toBe(401);
    expect(r.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  test('a certificate issued by the cluster CA authenticates as its CN', async () => {
    const made = makeCsr('ecdsa', '/CN=carol/O=devs');
    const cert = signWithCa(made.csrPem, join(c.dir, 'pki', 'ca.crt'), join(c.dir, 'pki', 'ca.key'));
    // Creating CSRs takes the bootstrap role system:node-bootstrapper.
    const bind = await c.apiserver.request('POST', '/apis/rbac.authorization.svc.io/v1/clusterrolebindings', {
      body: {
        metadata: { name: 'carol-bootstrapper' },
        roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'system:node-bootstrapper' },
        subjects: [{ kind: 'User', name: 'carol' }],
      },
    });
    expect(bind.status).toBe(201);
    // The policy reaches the authorizer through the watch cache: retry until it has.
    const r = await eventually(async () => {
      const res = await c.apiserver.request('POST', '/apis/certificates.svc.io/v1/certificatesigningrequests', {
      cert: { cert, key: made.keyPem },
      body: { metadata: { name: 'by-carol' }, spec: { request: Buffer.from(made.csrPem).toString('base64'), signerName: 'example.com/x', usages: ['client auth'] } },
      });
      return res.status === 403 ? null : res;
    }, 10_000, 'carol allowed to create CSRs');
    expect(r.status).toBe(201);
    expect(r.json()).toMatchObject({ spec: { username: 'carol', groups: ['devs', 'system:authenticated'] } });
  });

  test('metrics use upstream names and labels', async () => {
    await c.apiserver.request('GET', '/api/v1/namespaces');
    const text = (await c.apiserver.request('GET', '/metrics')).body;
    expect(text).toMatch(/apiserver_request_total\{verb="LIST",dry_run="",group="",version="v1",resource="namespaces",subresource="",scope="cluster",component="apiserver",code="200"\} \d+/);
    expect(text).toContain('apiserver_request_duration_seconds_bucket{');
    expect(text).toMatch(/etcd_request_duration_seconds_bucket\{le="[^"]+",operation="list",type="namespaces"\}/);
    expect(text).toMatch(/apiserver_storage_objects\{resource="namespaces"\} \d+/);
  });

  test('the built server loads malloc_trim and counts its calls', async () => {
    // make build compiles native/mallocTrim.c into dist/native when cc exists (it does here);
    // that the trims follow full GCs is unit-tested with V8's own GCs (cmd/freedMemory.test.ts).
    await eventually(async () => c.apiserver.logs.includes('"msg":"malloc_trim after full GCs"'), 10_000, 'the malloc_trim log line');
    expect(c.apiserver.logs).not.toContain('no malloc_trim');
    const text = (await c.apiserver.request('GET', '/metrics')).body;
    expect(text).toContain('# TYPE apiserver_malloc_trims_total counter');
    expect(text).toMatch(/^apiserver_malloc_trim_seconds_total \d/m);
  });

  test('YAML, pretty, 406 and gzip', async () => {
    const yaml = await c.apiserver.request('GET', '/api/v1/namespaces/default', { headers: { Accept: 'application/yaml' } });
    expect(yaml.headers['content-type']).toBe('application/yaml');
    expect(yaml.body).toContain('kind: Namespace');
    const pretty = await c.apiserver.request('GET', '/api/v1/namespaces/default?pretty=true');
    expect(pretty.body).toContain('\n  "kind": "Namespace"');
    const bad = await c.apiserver.request('GET', '/api/v1/namespaces', { headers: { Accept: 'text/html' } });
    expect(bad.status).toBe(406);
    // Enough objects for a response above the compression threshold.
    for (let i = 0; i < 400; i++) {
      await c.apiserver.request('POST', '/api/v1/namespaces/default/serviceaccounts', {
        body: { metadata: { name: `gz-${i}`, annotations: { filler: 'x'.repeat(300) } } },
      });
    }
    const gz = await new Promise<{ enc?: string; body: Buffer }>((res, rej) => {
      const pki = join(c.dir, 'pki');
      https
        .get(
          `${c.apiserver.url}/api/v1/namespaces/default/serviceaccounts`,
          { ca: c.apiserver.caPem, cert: readFileSync(join(pki, 'admin.crt')), key: readFileSync(join(pki, 'admin.key')), headers: { 'Accept-Encoding': 'gzip' } },
          (r) => {
            const chunks: Buffer[] = [];
            r.on('data', (d: Buffer) => chunks.push(d));
            r.on('end', () => res({ enc: r.headers['content-encoding'], body: Buffer.concat(chunks) }));
          },
        )
        .on('error', rej);
    });
    expect(gz.enc).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString()).items.length).toBeGreaterThanOrEqual(400);
  }, 60_000);

  test('--client-ca-file, --tls-cert-file and --tls-private-key-file serve given files', async () => {
    const other = new ApiServerProcess(mkdtempSync(join(c.dir, 'files-')), await freePort(), c.etcd.endpoint, [], join(c.dir, 'pki'));
    await other.start();
    try {
      const r = await other.request('GET', '/api/v1/namespaces/default');
      expect(r.status).toBe(200);
      expect(readdirSync(other.dir)).not.toContain('pki');
    } finally {
      await other.stop();
    }
  });

  test('body over 3 MiB → 413', async () => {
    const r = await c.apiserver.request('POST', '/api/v1/namespaces/default/serviceaccounts', { body: `{"metadata":{"name":"big","annotations":{"a":"${'x'.repeat(3 * 1024 * 1024)}"}}}` });
    expect(r.status).toBe(413);
    expect(r.json()).toMatchObject({ reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' });
  });
});
