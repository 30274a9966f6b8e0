// The openssl helpers (support/openssl.ts) hand back PEM text and leave nothing on disk: they
// used to leave a directory with a private key per CSR in /tmp (172 after one `make test`).
// They run in a child process whose TMPDIR is a fresh directory, so other test files working
// in parallel cannot add to what is counted.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './support/apiserver';

let base: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'svc-openssl-helpers-'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

test('makeCsr, makeCsrWithExtensions, signWithCa and verifyWithCa leave nothing in the temp directory', () => {
  const ca = join(base, 'ca');
  const helpersTmp = join(base, 'tmp');
  mkdirSync(ca);
  mkdirSync(helpersTmp);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=test-ca', '-keyout', join(ca, 'ca.key'), '-out', join(ca, 'ca.crt'), '-days', '1'], { stdio: 'ignore' });
  // Node runs the TypeScript helper directly (type stripping).
  const script = `
    import { makeCsr, makeCsrWithExtensions, signWithCa, verifyWithCa } from ${JSON.stringify(join(repoRoot, 'test/e2e/support/openssl.ts'))};
    const rsa = makeCsr('rsa', '/CN=rsa');
    const ec = makeCsrWithExtensions('ecdsa', '/CN=ec', ['subjectAltName=DNS:node1.example']);
    const cert = signWithCa(ec.csrPem, ${JSON.stringify(join(ca, 'ca.crt'))}, ${JSON.stringify(join(ca, 'ca.key'))});
    const verified = verifyWithCa(cert, ${JSON.stringify(join(ca, 'ca.crt'))});
    console.log(JSON.stringify({ rsa: rsa.keyPem.includes('PRIVATE KEY'), ec: ec.csrPem.includes('CERTIFICATE REQUEST'), verified: verified.ok }));
  `;
  const out = execFileSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], { env: { ...process.env, TMPDIR: helpersTmp }, encoding: 'utf8' });
  expect(JSON.parse(out)).toEqual({ rsa: true, ec: true, verified: true });
  expect(readdirSync(helpersTmp)).toEqual([]);
  // Signing used a random serial, not -CAcreateserial's ca.srl beside the CA certificate.
  expect(readdirSync(ca).sort()).toEqual(['ca.crt', 'ca.key']);
});
