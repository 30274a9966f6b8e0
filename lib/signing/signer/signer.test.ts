import { X509Certificate } from 'node:crypto';
import { signerNames } from '../../api';
import { ekuOid } from '../certs';
import { keyUsageBits } from '../usages';
import { x509 } from '../x509lib';
import { CsrSigner, type SignableRequest, type SignOutcome } from './signer';
import { parseSignerCA } from './signerCA';
import { breakSignature, makeCA, makeRequest, openssl, toRequestField, type RequestKeyKind, type TestCA } from './testing/requests';
import { SigningError } from './validity';

const min = 60_000;
const hour = 60 * min;
const now = new Date('2026-01-10T08:00:00Z');
const caStart = new Date('2026-01-01T00:00:00Z');
const caEnd = new Date('2028-01-01T00:00:00Z');
const clientUsages = ['digital signature', 'key encipherment', 'client auth'];
const servingUsages = ['digital signature', 'key encipherment', 'server auth'];

let ca: TestCA;
let otherKeyPem: string;
beforeAll(async () => {
  ca = await makeCA(caStart, caEnd);
  otherKeyPem = (await makeCA(caStart, caEnd)).keyPem;
});

function request(pem: string, signerName: string, usages: string[], expirationSeconds?: number): SignableRequest {
  return { metadata: { name: 'csr-1' }, spec: { request: toRequestField(pem), signerName, usages, ...(expirationSeconds === undefined ? {} : { expirationSeconds }) } };
}

function issued(out: SignOutcome): { pem: string; node: X509Certificate; cert: x509.X509Certificate } {
  if (out.kind !== 'issued') throw new Error(`expected a certificate, got ${JSON.stringify(out)}`);
  return { pem: out.certificatePem, node: new X509Certificate(out.certificatePem), cert: new x509.X509Certificate(out.certificatePem) };
}

function opensslVerify(caPem: string, leafPem: string, at: Date, purpose?: string): string {
  const args = ['verify', '-x509_strict', '-attime', String(Math.floor(at.getTime() / 1000)), ...(purpose ? ['-purpose', purpose] : []), '-CAfile', 'ca.pem', 'leaf.pem'];
  return openssl(args, { 'ca.pem': caPem, 'leaf.pem': leafPem }).trim();
}

const signer = (opts: Partial<ConstructorParameters<typeof CsrSigner>[0]> = {}): CsrSigner => new CsrSigner({ ca, now: () => now, ...opts });

describe('issuance per request key type', () => {
  test.each<[RequestKeyKind]>([['rsa-2048'], ['ecdsa-p256'], ['ecdsa-p384'], ['ed25519']])('%s', async (key) => {
    const pem = await makeRequest({ key, subject: [{ CN: ['alice'] }, { O: ['ops'] }] });
    const c = issued(await signer().sign(request(pem, signerNames.apiserverClient, clientUsages)));
    const caNode = new X509Certificate(ca.certPem);
    expect(c.node.verify(caNode.publicKey)).toBe(true);
    expect(c.node.checkIssued(caNode)).toBe(true);
    expect(c.node.publicKey.asymmetricKeyType).toBe({ 'rsa-2048': 'rsa', 'ecdsa-p256': 'ec', 'ecdsa-p384': 'ec', ed25519: 'ed25519' }[key]);
    expect(opensslVerify(ca.certPem, c.pem, now, 'sslclient')).toBe('leaf.pem: OK');
  });

  test.each<['rsa-2048' | 'ecdsa-p384' | 'ed25519', RegExp]>([
    ['rsa-2048', /sha256WithRSAEncryption/],
    ['ecdsa-p384', /ecdsa-with-SHA384/],
    ['ed25519', /ED25519/],
  ])('a %s CA signs with its Go default algorithm', async (alg, sigAlg) => {
    const other = await makeCA(caStart, caEnd, alg);
    const c = issued(await signer({ ca: other }).sign(request(await makeRequest(), signerNames.apiserverClientSvclet, clientUsages)));
    expect(c.node.verify(new X509Certificate(other.certPem).publicKey)).toBe(true);
    expect(opensslVerify(other.certPem, c.pem, now)).toBe('leaf.pem: OK');
    expect(openssl(['x509', '-noout', '-text', '-in', 'c.pem'], { 'c.pem': c.pem })).toMatch(sigAlg);
  });
});

describe('validity (injected clock)', () => {
  const at = (ms: number, from = now): string => new Date(from.getTime() + ms).toISOString();
  test.each<[string, { maxDuration?: number; clock?: Date }, number | undefined, string]>([
    ['expirationSeconds unset → 8760h − 5m', {}, undefined, at(8760 * hour - 5 * min)],
    ['small (10 minutes) → not shortened', {}, 600, at(10 * min)],
    ['one hour', {}, 3600, at(hour)],
    ['below the floor → raised to 10 minutes', {}, 60, at(10 * min)],
    ['8h → minus the backdate', {}, 8 * 3600, at(8 * hour - 5 * min)],
    ['large → the --cluster-signing-duration maximum', { maxDuration: 24 * hour }, 30 * 24 * 3600, at(24 * hour - 5 * min)],
    ['beyond the CA remaining life → the CA NotAfter', { maxDuration: 5 * 8760 * hour }, 3 * 365 * 24 * 3600, caEnd.toISOString()],
    ['clock a minute before the CA ends', { clock: new Date(caEnd.getTime() - min) }, 3600, caEnd.toISOString()],
  ])('%s', async (_n, opts, exp, notAfter) => {
    const clock = opts.clock ?? now;
    const s = signer({ now: () => clock, ...(opts.maxDuration ? { maxDuration: opts.maxDuration } : {}) });
    const c = issued(await s.sign(request(await makeRequest(), signerNames.apiserverClientSvclet, clientUsages, exp)));
    expect(c.cert.notBefore.toISOString()).toBe(at(-5 * min, clock));
    expect(c.cert.notAfter.toISOString()).toBe(notAfter);
  });

  test.each<[string, Date, string]>([
    ['CA expired', new Date(caEnd.getTime() + hour), 'the signer has expired: NotAfter=2028-01-01 00:00:00 +0000 UTC'],
    ['CA expired inside the backdate window', new Date(caEnd.getTime() + min), 'refusing to sign a certificate that expired in the past: NotAfter=2028-01-01 00:00:00 +0000 UTC'],
  ])('%s → retryable error', async (_n, clock, msg) => {
    const s = signer({ now: () => clock });
    const run = s.sign(request(await makeRequest(), signerNames.apiserverClientSvclet, clientUsages));
    await expect(run).rejects.toThrow(msg);
    await expect(run).rejects.toBeInstanceOf(SigningError);
  });

  test('sub-second clocks are truncated to whole seconds', async () => {
    const s = signer({ now: () => new Date('2026-01-10T08:00:00.750Z') });
    const c = issued(await s.sign(request(await makeRequest(), signerNames.apiserverClientSvclet, clientUsages, 3600)));
    expect(c.cert.notBefore.toISOString()).toBe('2026-01-10T07:55:00.000Z');
    expect(c.cert.notAfter.toISOString()).toBe('2026-01-10T09:00:00.000Z');
  });
});

describe('certificate contents', () => {
  test('key usage bits and EKUs in Go enum order, de-duplicated (legacy-unknown takes any usages)', async () => {
    const usages = ['netscape sgc', 'client auth', 's/mime', 'server auth', 'email protection', 'any', 'key agreement', 'digital signature', 'signing', 'crl sign', 'ocsp signing'];
    const c = issued(await signer().sign(request(await makeRequest(), signerNames.legacyUnknown, usages)));
    const ku = c.cert.getExtension(x509.KeyUsagesExtension);
    expect(ku?.critical).toBe(true);
    expect(ku?.usages).toBe(keyUsageBits.digitalSignature | keyUsageBits.keyAgreement | keyUsageBits.crlSign);
    const eku = c.cert.getExtension(x509.ExtendedKeyUsageExtension);
    expect(eku?.usages.map(String)).toEqual(['2.5.29.37.0', ekuOid.serverAuth, ekuOid.clientAuth, ekuOid.emailProtection, ekuOid.ocspSigning, ekuOid.netscapeSGC]);
  });

  test('client usages: KU digitalSignature|keyEncipherment, EKU clientAuth only', async () => {
    const c = issued(await signer().sign(request(await makeRequest(), signerNames.apiserverClientSvclet, ['client auth', 'key encipherment', 'digital signature'])));
    expect(c.cert.getExtension(x509.KeyUsagesExtension)?.usages).toBe(keyUsageBits.digitalSignature | keyUsageBits.keyEncipherment);
    expect(c.cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages.map(String)).toEqual([ekuOid.clientAuth]);
  });

  test('serving certificate: SANs of every kind copied in Go order, verifies for sslserver', async () => {
    const pem = await makeRequest({ dns: ['n1.example', 'n1'], ips: ['10.0.0.7', '2001:db8::1'] });
    const c = issued(await signer().sign(request(pem, signerNames.svcletServing, servingUsages)));
    expect(c.node.subjectAltName).toBe('DNS:n1.example, DNS:n1, IP Address:10.0.0.7, IP Address:2001:DB8:0:0:0:0:0:1');
    expect(opensslVerify(ca.certPem, c.pem, now, 'sslserver')).toBe('leaf.pem: OK');
    const all = issued(
      await signer().sign(
        request(await makeRequest({ subject: [{ CN: ['x'] }], uris: ['spiffe://cluster/ns/a'], emails: ['x@example.com'], ips: ['::ffff:102:304'], dns: ['d'] }), signerNames.apiserverClient, ['client auth']),
      ),
    );
    expect(all.node.subjectAltName).toBe('DNS:d, email:x@example.com, IP Address:1.2.3.4, URI:spiffe://cluster/ns/a');
  });

  test("subject: Go's attribute order, unknown attributes not carried; requested extensions dropped; CA=false; AKI; no chain", async () => {
    const pem = await makeRequest({
      subject: [{ CN: ['alice'] }, { O: ['ops'] }, { O: ['dev'] }, { '0.9.2342.19200300.100.1.1': ['uid-1'] }],
      extensions: [
        new x509.BasicConstraintsExtension(true, 3, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
        new x509.ExtendedKeyUsageExtension([ekuOid.codeSigning]),
        new x509.Extension('1.2.3.4.5', false, new Uint8Array([5, 0])),
      ],
    });
    const c = issued(await signer().sign(request(pem, signerNames.apiserverClient, ['digital signature', 'client auth'])));
    expect(c.node.subject).toBe('O=ops\nO=dev\nCN=alice');
    // KU, basic constraints, AKI, EKU: nothing else (no SKI for leaves, no SAN when none was asked).
    expect(c.cert.extensions.map((e) => e.type)).toEqual(['2.5.29.15', '2.5.29.37', '2.5.29.19', '2.5.29.35']);
    expect(c.node.ca).toBe(false);
    const bc = c.cert.getExtension(x509.BasicConstraintsExtension);
    expect([bc?.ca, bc?.pathLength, bc?.critical]).toEqual([false, undefined, true]);
    expect(c.cert.getExtension(x509.KeyUsagesExtension)?.usages).toBe(keyUsageBits.digitalSignature);
    expect(c.cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages.map(String)).toEqual([ekuOid.clientAuth]);
    const caSki = new x509.X509Certificate(ca.certPem).getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
    expect(c.cert.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId).toBe(caSki);
    expect(c.pem.match(/-----BEGIN CERTIFICATE-----/g)).toHaveLength(1);
    expect(c.pem.endsWith('-----END CERTIFICATE-----\n')).toBe(true);
  });

  test('serial numbers: below 2^128, different on every call', async () => {
    const s = signer();
    const req = request(await makeRequest(), signerNames.apiserverClientSvclet, clientUsages);
    const serials = new Set<bigint>();
    for (let i = 0; i < 20; i++) {
      const serial = BigInt(`0x${issued(await s.sign(req)).node.serialNumber}`);
      expect(serial).toBeLessThan(2n ** 128n);
      expect(serial).toBeGreaterThanOrEqual(0n);
      serials.add(serial);
    }
    expect(serials.size).toBe(20);
  });
});

describe('outcomes', () => {
  test.each<[string, string, () => Promise<string>, string[], string]>([
    ['svclet client with a DNS SAN', signerNames.apiserverClientSvclet, () => makeRequest({ dns: ['a'] }), clientUsages, 'DNS subjectAltNames are not allowed'],
    ['svclet client, wrong O', signerNames.apiserverClientSvclet, () => makeRequest({ subject: [{ CN: ['system:node:n1'] }, { O: ['x'] }] }), clientUsages, 'subject organization is not system:nodes'],
    ['serving without SANs', signerNames.svcletServing, () => makeRequest(), servingUsages, 'DNS or IP subjectAltName is required'],
    ['apiserver client with server auth', signerNames.apiserverClient, () => makeRequest(), ['server auth'], 'invalid usage for client certificate: server auth'],
  ])('%s → failed', async (_n, signerName, pem, usages, message) => {
    expect(await signer().sign(request(await pem(), signerName, usages))).toEqual({ kind: 'failed', reason: 'SignerValidationFailure', message });
  });

  test('constraints are checked before the signature (as upstream)', async () => {
    const pem = breakSignature(await makeRequest({ dns: ['a'] }));
    expect(await signer().sign(request(pem, signerNames.apiserverClientSvclet, clientUsages))).toMatchObject({ kind: 'failed' });
  });

  test.each<[string, () => Promise<SignableRequest>, string]>([
    ['broken signature', async () => request(breakSignature(await makeRequest()), signerNames.apiserverClientSvclet, clientUsages), 'unable to verify certificate request signature: x509: ECDSA verification failure'],
    ['not a request', async () => ({ metadata: { name: 'bad' }, spec: { request: toRequestField('nope'), signerName: signerNames.apiserverClient, usages: ['client auth'] } }), 'unable to parse csr "bad": PEM block type must be CERTIFICATE REQUEST'],
    ['unknown usage (legacy signer)', async () => request(await makeRequest(), signerNames.legacyUnknown, ['flying', 'client auth', 'x']), 'unrecognized usage values: ["flying" "x"]'],
  ])('%s → retryable error', async (_n, req, msg) => {
    const run = signer().sign(await req());
    await expect(run).rejects.toThrow(msg);
    await expect(run).rejects.toBeInstanceOf(SigningError);
  });

  test.each(['svc.io/unknown', 'example.com/custom', ''])('unknown signer %j → ignored', async (name) => {
    expect(await signer().sign(request(await makeRequest(), name, clientUsages))).toEqual({ kind: 'ignored' });
  });
});

describe('CA material', () => {
  test('per-signer CA overrides the shared one; signers without a CA are not run', async () => {
    const other = await makeCA(caStart, caEnd, 'ecdsa-p256', 'serving-ca');
    const s = new CsrSigner({ perSigner: { [signerNames.svcletServing]: other, [signerNames.apiserverClientSvclet]: ca }, now: () => now });
    expect(s.signerNames.sort()).toEqual([signerNames.apiserverClientSvclet, signerNames.svcletServing].sort());
    expect(s.handles(signerNames.apiserverClient)).toBe(false);
    const serving = issued(await s.sign(request(await makeRequest({ dns: ['n1'] }), signerNames.svcletServing, servingUsages)));
    expect(serving.node.issuer).toBe('CN=serving-ca');
    const client = issued(await s.sign(request(await makeRequest(), signerNames.apiserverClientSvclet, clientUsages)));
    expect(client.node.issuer).toBe('CN=signer-ca');
    expect(await s.sign(request(await makeRequest(), signerNames.apiserverClient, ['client auth']))).toEqual({ kind: 'ignored' });
    const mixed = new CsrSigner({ ca, perSigner: { [signerNames.svcletServing]: other }, now: () => now });
    expect(issued(await mixed.sign(request(await makeRequest({ dns: ['n1'] }), signerNames.svcletServing, servingUsages))).node.issuer).toBe('CN=serving-ca');
    expect(issued(await mixed.sign(request(await makeRequest(), signerNames.apiserverClient, ['client auth']))).node.issuer).toBe('CN=signer-ca');
  });

  test('signerNames restricts the signers run', async () => {
    const s = signer({ signerNames: [signerNames.apiserverClient] });
    expect(s.signerNames).toEqual([signerNames.apiserverClient]);
    expect(await s.sign(request(await makeRequest(), signerNames.apiserverClientSvclet, clientUsages))).toEqual({ kind: 'ignored' });
  });

  test.each<[string, () => CsrSigner, string]>([
    ['mismatched key', () => new CsrSigner({ ca: { certPem: ca.certPem, keyPem: otherKeyPem } }), 'tls: private key does not match public key'],
    ['garbage cert', () => new CsrSigner({ ca: { certPem: 'x', keyPem: ca.keyPem } }), 'data does not contain any valid RSA or ECDSA certificates'],
    ['unknown signer name', () => new CsrSigner({ ca, signerNames: ['svc.io/nope'] }), 'no signing policy for signer "svc.io/nope"'],
    ['bad maxDuration', () => new CsrSigner({ ca, maxDuration: 0 }), 'maxDuration must be positive'],
  ])('constructor rejects %s', (_n, make, msg) => {
    expect(make).toThrow(msg);
  });

  test('a pre-parsed CA (from loadSignerCA / parseSignerCA) is used as is', async () => {
    const parsed = parseSignerCA(ca);
    const c = issued(await new CsrSigner({ ca: parsed, now: () => now }).sign(request(await makeRequest(), signerNames.apiserverClientSvclet, clientUsages)));
    expect(c.node.checkIssued(new X509Certificate(ca.certPem))).toBe(true);
  });
});

test('throughput (printed, not asserted)', async () => {
  const report: string[] = [];
  for (const [caAlg, reqKey] of [['ecdsa-p256', 'ecdsa-p256'], ['rsa-2048', 'rsa-2048']] as const) {
    const s = signer({ ca: await makeCA(caStart, caEnd, caAlg) });
    const req = request(await makeRequest({ key: reqKey }), signerNames.apiserverClientSvclet, clientUsages);
    await s.sign(req); // warm-up: imports the CA key once
    const n = 100;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) issued(await s.sign(req));
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    report.push(`${caAlg} CA, ${reqKey} requests: ${(n / secs).toFixed(0)} certificates/s (${((secs / n) * 1000).toFixed(2)} ms each)`);
  }
  console.log(`CsrSigner throughput\n${report.join('\n')}`);
  expect(report).toHaveLength(2);
});
