// A kubectl 1.32 session against the real processes, as a newcomer would type it.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCluster, TestCluster, eventually } from './support/apiserver';
import { b64, makeCsr } from './support/openssl';

let c: TestCluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

async function ok(args: string[]): Promise<string> {
  const r = await c.apiserver.kubectl(args);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

describe('kubectl', () => {
  test('api-resources lists csr, sa and ns', async () => {
    const out = await ok(['api-resources']);
    expect(out).toMatch(/certificatesigningrequests\s+csr\s+certificates\.svc\.io\/v1\s+false\s+CertificateSigningRequest/);
    expect(out).toMatch(/serviceaccounts\s+sa\s+v1\s+true\s+ServiceAccount/);
    expect(out).toMatch(/namespaces\s+ns\s+v1\s+false\s+Namespace/);
  });

  test('create ns, create sa, get -A, chunked get, patch, delete', async () => {
    expect(await ok(['create', 'ns', 'demo'])).toContain('namespace/demo created');
    expect(await ok(['create', 'sa', 'bot', '-n', 'demo'])).toContain('serviceaccount/bot created');
    for (const n of ['a', 'b', 'c']) await ok(['create', 'sa', `extra-${n}`, '-n', 'demo']);
    const all = await ok(['get', 'sa', '-A']);
    expect(all).toMatch(/demo\s+bot/);
    const chunked = await c.apiserver.kubectl(['get', 'sa', '-A', '--chunk-size=2', '-v=6']);
    expect(chunked.code).toBe(0);
    expect(chunked.stdout).toMatch(/demo\s+extra-c/);
    expect(chunked.stderr).toContain('continue=');
    const patched = await ok(['patch', 'sa', 'bot', '-n', 'demo', '--type=merge', '-p', '{"metadata":{"labels":{"team":"blue"}}}']);
    expect(patched).toContain('serviceaccount/bot patched');
    expect(await ok(['get', 'sa', '-n', 'demo', '-l', 'team=blue', '-o', 'name'])).toBe('serviceaccount/bot\n');
    // kubectl's default patch type is a strategic merge patch; secrets merge on their name.
    await ok(['patch', 'sa', 'bot', '-n', 'demo', '-p', '{"secrets":[{"name":"one"}]}']);
    await ok(['patch', 'sa', 'bot', '-n', 'demo', '-p', '{"secrets":[{"name":"two"}]}']);
    expect(await ok(['get', 'sa', 'bot', '-n', 'demo', '-o', 'jsonpath={.secrets[*].name}'])).toBe('two one');
    expect(await ok(['label', 'sa', 'bot', '-n', 'demo', 'tier=web'])).toContain('serviceaccount/bot labeled');
    expect(await ok(['annotate', 'ns', 'demo', 'owner=me'])).toContain('namespace/demo annotated');
    const json = JSON.parse(await ok(['get', 'sa', 'bot', '-n', 'demo', '-o', 'json'])) as { metadata: { labels: Record<string, string> } };
    expect(json.metadata.labels).toEqual({ team: 'blue', tier: 'web' });
    expect(await ok(['delete', 'sa', 'bot', '-n', 'demo'])).toContain('serviceaccount "bot" deleted');
    const gone = await c.apiserver.kubectl(['get', 'sa', 'bot', '-n', 'demo']);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('serviceaccounts "bot" not found');
  });

  test.each(['rsa', 'ecdsa'] as const)('create -f a %s CSR and get -o yaml shows spec.username: admin', async (kind) => {
    const made = makeCsr(kind, `/CN=kubectl-${kind}`);
    const file = join(c.dir, `csr-${kind}.yaml`);
    writeFileSync(
      file,
      [
        'apiVersion: certificates.svc.io/v1',
        'kind: CertificateSigningRequest',
        'metadata:',
        `  name: kubectl-${kind}`,
        'spec:',
        `  request: ${b64(made.csrPem)}`,
        '  signerName: svc.io/svc-apiserver-client',
        '  expirationSeconds: 86400',
        '  usages:',
        '  - client auth',
        '',
      ].join('\n'),
    );
    expect(await ok(['create', '-f', file])).toContain(`certificatesigningrequest.certificates.svc.io/kubectl-${kind} created`);
    const yaml = await ok(['get', 'csr', `kubectl-${kind}`, '-o', 'yaml']);
    expect(yaml).toContain('username: admin');
    expect(yaml).toContain('signerName: svc.io/svc-apiserver-client');
  });

  test('get --watch prints changes as they happen', async () => {
    await ok(['create', 'ns', 'watched']);
    const child = spawn('kubectl', [`--kubeconfig=${c.apiserver.kubeconfig}`, 'get', 'sa', '-n', 'watched', '--watch', '--request-timeout=30s']);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await new Promise((r) => setTimeout(r, 500));
      await ok(['create', 'sa', 'seen-live', '-n', 'watched']);
      await eventually(async () => out.includes('seen-live'), 15_000, `kubectl --watch output (got: ${out})`);
    } finally {
      child.kill();
    }
  });

  test('explain reads the published OpenAPI', async () => {
    const out = await ok(['explain', 'csr.spec.signerName']);
    expect(out).toContain('signerName');
  });

  test('explain --output=plaintext-openapiv2 reads the protobuf OpenAPI v2 document', async () => {
    const out = await ok(['explain', 'sa.secrets', '--output=plaintext-openapiv2']);
    expect(out).toContain('RESOURCE: secrets <[]Object>');
    expect(out).toMatch(/name\t<string>/);
  });
});
