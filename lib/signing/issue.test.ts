import { execFileSync } from 'node:child_process';
import { createPublicKey, webcrypto, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { certificateFacts, ekuOid } from './certs';
import { readElement } from './der';
import { issueCertificate, subjectToName, type CertificateSubject } from './issue';
import { generatePrivateKey, type KeyAlgorithm } from './keys';
import { toX509Usages } from './usages';
import { x509 } from './x509lib';

const now = new Date('2026-01-10T08:00:00Z');
const later = new Date('2027-01-10T08:00:00Z');

async function makeCA(alg: KeyAlgorithm) {
  const key = generatePrivateKey(alg);
  const ca = await issueCertificate({ caKey: key, subject: { commonName: 'test-ca' }, usages: ['cert sign', 'digital signature'], notBefore: now, notAfter: later, isCA: true });
  return { key, ca };
}

function opensslText(pem: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'issue-'));
  try {
    writeFileSync(path.join(dir, 'c.pem'), pem);
    return execFileSync('openssl', ['x509', '-noout', '-text', '-in', path.join(dir, 'c.pem')]).toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('toX509Usages', () => {
  test.each([
    [['digital signature', 'key encipherment', 'client auth'], 0b101, [ekuOid.clientAuth]],
    [['signing', 'digital signature'], 0b1, []],
    [['client auth', 'server auth', 'any'], 0, ['2.5.29.37.0', ekuOid.serverAuth, ekuOid.clientAuth]],
    [['s/mime', 'email protection'], 0, [ekuOid.emailProtection]],
    [['cert sign', 'crl sign', 'content commitment'], 0b1100010, []],
    [['netscape sgc', 'microsoft sgc', 'ocsp signing', 'timestamping'], 0, ['1.3.6.1.5.5.7.3.8', '1.3.6.1.5.5.7.3.9', '1.3.6.1.4.1.311.10.3.3', '2.16.840.1.113730.4.1']],
    [['encipher only', 'decipher only', 'key agreement', 'data encipherment'], 0b110011000, []],
  ])('%j', (usages, ku, ekus) => {
    expect(toX509Usages(usages)).toEqual({ keyUsage: ku, extKeyUsages: ekus });
  });
  test('unknown usage', () => {
    expect(() => toX509Usages(['flying'])).toThrow('unknown usage: flying');
  });
});

describe('issueCertificate', () => {
  test.each<[KeyAlgorithm, RegExp]>([
    ['ecdsa-p256', /ecdsa-with-SHA256/],
    ['ecdsa-p384', /ecdsa-with-SHA384/],
    ['rsa-2048', /sha256WithRSAEncryption/],
    ['ed25519', /ED25519/],
  ])('CA key %s signs leaves OpenSSL verifies', async (alg, sigAlg) => {
    const { key: caKey, ca } = await makeCA(alg);
    const leafKey = generatePrivateKey('ecdsa-p256');
    const leaf = await issueCertificate({
      caCert: ca.pem,
      caKey,
      publicKey: leafKey,
      subject: { commonName: 'system:node:n1', organizations: ['system:nodes', 'b'] },
      sans: { dnsNames: ['n1.example'], ipAddresses: ['10.0.0.1', '::1'], emailAddresses: ['a@b.c'], uris: ['spiffe://x/y'] },
      usages: ['digital signature', 'server auth', 'client auth'],
      notBefore: now,
      notAfter: later,
    });
    const nodeLeaf = new X509Certificate(leaf.pem);
    expect(nodeLeaf.verify(new X509Certificate(ca.pem).publicKey)).toBe(true);
    expect(nodeLeaf.checkIssued(new X509Certificate(ca.pem))).toBe(true);
    expect(nodeLeaf.subject).toBe('O=system:nodes\nO=b\nCN=system:node:n1');
    const text = opensslText(leaf.pem);
    expect(text).toMatch(sigAlg);
    expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature\s/);
    expect(text).toMatch(/X509v3 Extended Key Usage:\s+TLS Web Server Authentication, TLS Web Client Authentication/);
    expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:FALSE/);
    expect(text).toMatch(/DNS:n1.example, email:a@b.c, IP Address:10.0.0.1, IP Address:0:0:0:0:0:0:0:1, URI:spiffe:\/\/x\/y/);
    expect(text).toMatch(/X509v3 Authority Key Identifier/);
    expect(text).not.toMatch(/X509v3 Subject Key Identifier/);
    const f = certificateFacts(leaf.certificate);
    expect(f).toMatchObject({ commonName: 'system:node:n1', organizations: ['system:nodes', 'b'], dnsNames: ['n1.example'], isCA: false });
    expect(f.notBefore.toISOString()).toBe(now.toISOString());
    expect(f.notAfter.toISOString()).toBe(later.toISOString());
  });

  test('self-signed CA has basic constraints CA:TRUE, SKI, no AKI', async () => {
    const { ca } = await makeCA('ecdsa-p256');
    const text = opensslText(ca.pem);
    expect(text).toMatch(/CA:TRUE/);
    expect(text).toMatch(/Certificate Sign/);
    expect(text).toMatch(/X509v3 Subject Key Identifier/);
    expect(text).not.toMatch(/Authority Key Identifier/);
    expect(new X509Certificate(ca.pem).ca).toBe(true);
    expect(ca.pem.endsWith('-----END CERTIFICATE-----\n')).toBe(true);
    expect(ca.pem.split('-----BEGIN CERTIFICATE-----')).toHaveLength(2);
  });

  test('serial numbers are random and positive; explicit serial is kept', async () => {
    const { key, ca } = await makeCA('ecdsa-p256');
    const serials = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const c = await issueCertificate({ caCert: ca.certificate, caKey: key, publicKey: generatePrivateKey(), subject: { commonName: 'x' }, usages: ['client auth'], notBefore: now, notAfter: later });
      // node prints the serial as unsigned hex; a negative encoding would show as a leading FF…
      const der = c.der;
      serials.add(new X509Certificate(c.pem).serialNumber);
      expect(der.length).toBeGreaterThan(0);
      expect(opensslText(c.pem)).not.toMatch(/Serial Number:\s*\(Negative\)/);
    }
    expect(serials.size).toBe(8);
    const fixed = await issueCertificate({ caCert: ca.certificate, caKey: key, publicKey: generatePrivateKey(), subject: { commonName: 'x' }, usages: [], notBefore: now, notAfter: later, serialNumber: 0xff01n });
    expect(new X509Certificate(fixed.pem).serialNumber).toBe('FF01');
  });

  test('a parsed Name subject is copied as is; empty subject makes the SAN critical', async () => {
    const { key, ca } = await makeCA('ecdsa-p256');
    const name = new x509.Name('CN=copied, O=g1');
    const c = await issueCertificate({ caCert: ca.pem, caKey: key, publicKey: generatePrivateKey(), subject: name, usages: [], notBefore: now, notAfter: later });
    expect(new X509Certificate(c.pem).subject).toBe('CN=copied\nO=g1');
    const empty = await issueCertificate({ caCert: ca.pem, caKey: key, publicKey: generatePrivateKey(), subject: {}, sans: { dnsNames: ['a'] }, usages: [], notBefore: now, notAfter: later });
    expect(opensslText(empty.pem)).toMatch(/Subject Alternative Name: critical/);
    expect(opensslText(c.pem)).not.toMatch(/X509v3 Key Usage/);
  });

  test('public key may be SPKI DER bytes (as taken from a CSR)', async () => {
    const { key, ca } = await makeCA('ecdsa-p256');
    const leafKey = generatePrivateKey('rsa-2048');
    const spki = new Uint8Array(createPublicKey(leafKey).export({ type: 'spki', format: 'der' }));
    const c = await issueCertificate({ caCert: ca.pem, caKey: key, publicKey: spki, subject: { commonName: 'r' }, usages: [], notBefore: now, notAfter: later });
    expect(new X509Certificate(c.pem).checkPrivateKey(leafKey)).toBe(true);
  });

  test.each<[string, () => Promise<unknown>, string]>([
    ['notAfter before notBefore', async () => issueCertificate({ caKey: generatePrivateKey(), subject: {}, usages: [], notBefore: later, notAfter: now }), 'must be after notBefore'],
    [
      'issuer key does not match',
      async () => {
        const { ca } = await makeCA('ecdsa-p256');
        return issueCertificate({ caCert: ca.pem, caKey: generatePrivateKey(), publicKey: generatePrivateKey(), subject: {}, usages: [], notBefore: now, notAfter: later });
      },
      'issuer key does not match',
    ],
    [
      'missing public key',
      async () => {
        const { key, ca } = await makeCA('ecdsa-p256');
        return issueCertificate({ caCert: ca.pem, caKey: key, subject: {}, usages: [], notBefore: now, notAfter: later });
      },
      'publicKey is required',
    ],
    ['garbage key', async () => issueCertificate({ caKey: 'nope', subject: {}, usages: [], notBefore: now, notAfter: later }), 'issuer key: cannot parse private key'],
    ['unknown usage', async () => issueCertificate({ caKey: generatePrivateKey(), subject: {}, usages: ['bogus'], notBefore: now, notAfter: later }), 'unknown usage: bogus'],
  ])('rejects: %s', async (_n, run, msg) => {
    await expect(run()).rejects.toThrow(msg);
  });

  test('subjectToName orders attributes like Go', () => {
    const n = subjectToName({ commonName: 'c', organizations: ['o1', 'o2'], countries: ['DE'], organizationalUnits: ['u'] });
    expect(n.toString()).toBe('C=DE, O=o1, O=o2, OU=u, CN=c');
  });
});

/** The certificate the schema-driven library builds for the same fields: the reference our DER writer must equal. */
async function referenceCertificate(o: {
  caKey: KeyObject;
  ca?: x509.X509Certificate;
  spki: Uint8Array;
  subject: x509.Name;
  sans: x509.JsonGeneralName[];
  usages: readonly string[];
  isCA: boolean;
  serialHex: string;
  notBefore: Date;
  notAfter: Date;
}): Promise<Buffer> {
  const alg: Record<string, [Record<string, string>, { name: string; hash?: string }]> = {
    prime256v1: [{ name: 'ECDSA', namedCurve: 'P-256' }, { name: 'ECDSA', hash: 'SHA-256' }],
    secp384r1: [{ name: 'ECDSA', namedCurve: 'P-384' }, { name: 'ECDSA', hash: 'SHA-384' }],
    rsa: [{ name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }],
    ed25519: [{ name: 'Ed25519' }, { name: 'Ed25519' }],
  };
  const [importParams, signingAlgorithm] = alg[o.caKey.asymmetricKeyDetails?.namedCurve ?? o.caKey.asymmetricKeyType ?? ''];
  const signingKey = await webcrypto.subtle.importKey('pkcs8', o.caKey.export({ type: 'pkcs8', format: 'der' }), importParams as never, false, ['sign']);
  const { keyUsage, extKeyUsages } = toX509Usages(o.usages);
  const extensions: x509.Extension[] = [];
  if (keyUsage) extensions.push(new x509.KeyUsagesExtension(keyUsage, true));
  if (extKeyUsages.length) extensions.push(new x509.ExtendedKeyUsageExtension(extKeyUsages, false));
  extensions.push(new x509.BasicConstraintsExtension(o.isCA, undefined, true));
  if (o.isCA) extensions.push(await x509.SubjectKeyIdentifierExtension.create(o.spki, false));
  const keyId = o.ca?.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  if (keyId) extensions.push(new x509.AuthorityKeyIdentifierExtension(keyId, false));
  if (o.sans.length) extensions.push(new x509.SubjectAlternativeNameExtension(o.sans, o.subject.toJSON().length === 0));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: o.serialHex,
    subject: o.subject,
    issuer: o.ca ? o.ca.subjectName : o.subject,
    notBefore: o.notBefore,
    notAfter: o.notAfter,
    publicKey: o.spki,
    signingKey: signingKey as never,
    signingAlgorithm,
    extensions,
  });
  return Buffer.from(cert.rawData);
}

/** TBSCertificate and signature AlgorithmIdentifier of a certificate's DER. */
function tbsAndAlgorithm(der: Uint8Array): [Buffer, Buffer] {
  const outer = readElement(der);
  const tbs = readElement(der, outer.start);
  const algorithm = readElement(der, tbs.end);
  return [Buffer.from(der.subarray(outer.start, tbs.end)), Buffer.from(der.subarray(tbs.end, algorithm.end))];
}

describe('the DER writer against the schema-driven reference', () => {
  const cases: Array<[string, KeyAlgorithm, Partial<Parameters<typeof issueCertificate>[0]> & { sanList?: x509.JsonGeneralName[] }]> = [
    ['node client, P-256 CA', 'ecdsa-p256', { subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] }, usages: ['digital signature', 'key encipherment', 'client auth'] }],
    ['serving with every SAN kind, P-384 CA', 'ecdsa-p384', { subject: { commonName: 'system:node:n2', organizations: ['system:nodes'] }, usages: ['digital signature', 'server auth'], sans: { dnsNames: ['n2.example', 'x.y'], emailAddresses: ['a@b.c'], ipAddresses: ['10.0.0.1', '::1', 'fe80::1:2'], uris: ['spiffe://td/ns/x'] } }],
    ['every usage, RSA CA', 'rsa-2048', { subject: { commonName: 'u', organizationalUnits: ['ou'], countries: ['DE'], localities: ['Berlin'] }, usages: ['signing', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment', 'cert sign', 'crl sign', 'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing', 'email protection', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing', 'microsoft sgc', 'netscape sgc'] }],
    ['empty subject (critical SAN), no usages, Ed25519 CA', 'ed25519', { subject: {}, usages: [], sans: { dnsNames: ['only.example'] } }],
    ['non-ASCII subject, long validity past 2049', 'ecdsa-p256', { subject: { commonName: 'Jürgen 名前', organizations: ['a', 'b', 'c'] }, usages: ['client auth'], notAfter: new Date('2051-03-04T05:06:07Z') }],
  ];

  test.each(cases)('%s: same TBSCertificate and signature algorithm', async (_n, caAlg, o) => {
    const { key: caKey, ca } = await makeCA(caAlg);
    const leafKey = generatePrivateKey('ecdsa-p256');
    const spki = new Uint8Array(createPublicKey(leafKey).export({ type: 'spki', format: 'der' }));
    const notAfter = o.notAfter ?? later;
    for (const serialNumber of [0x7fn, 0x80n, 0x00ff_0000_0000_0000_0000_0000_0000_0001n, (1n << 128n) - 1n]) {
      const ours = await issueCertificate({ caCert: ca.pem, caKey, publicKey: spki, subject: o.subject ?? {}, sans: o.sans, usages: o.usages ?? [], notBefore: now, notAfter, serialNumber });
      const sans: x509.JsonGeneralName[] = [
        ...(o.sans?.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
        ...(o.sans?.emailAddresses ?? []).map((value) => ({ type: 'email' as const, value })),
        ...(o.sans?.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
        ...(o.sans?.uris ?? []).map((value) => ({ type: 'url' as const, value })),
      ];
      const hex = serialNumber.toString(16);
      const reference = await referenceCertificate({
        caKey,
        ca: ca.certificate,
        spki,
        subject: subjectToName((o.subject ?? {}) as CertificateSubject),
        sans,
        usages: o.usages ?? [],
        isCA: false,
        serialHex: hex.length % 2 ? `0${hex}` : hex,
        notBefore: now,
        notAfter,
      });
      expect(tbsAndAlgorithm(ours.der)[0].toString('hex')).toBe(tbsAndAlgorithm(reference)[0].toString('hex'));
      expect(tbsAndAlgorithm(ours.der)[1].toString('hex')).toBe(tbsAndAlgorithm(reference)[1].toString('hex'));
      expect(new X509Certificate(ours.pem).verify(new X509Certificate(ca.pem).publicKey)).toBe(true);
    }
  });

  test.each<KeyAlgorithm>(['ecdsa-p256', 'ecdsa-p384', 'rsa-2048', 'ed25519'])('self-signed %s CA: same TBSCertificate (SKI included)', async (alg) => {
    const key = generatePrivateKey(alg);
    const subject = { commonName: 'svc-ca', organizations: ['svc'] };
    const usages = ['cert sign', 'digital signature', 'key encipherment'];
    const ours = await issueCertificate({ caKey: key, subject, usages, notBefore: now, notAfter: later, isCA: true, serialNumber: 1n });
    const spki = new Uint8Array(createPublicKey(key).export({ type: 'spki', format: 'der' }));
    const reference = await referenceCertificate({ caKey: key, spki, subject: subjectToName(subject), sans: [], usages, isCA: true, serialHex: '01', notBefore: now, notAfter: later });
    expect(tbsAndAlgorithm(ours.der)[0].toString('hex')).toBe(tbsAndAlgorithm(reference)[0].toString('hex'));
    expect(new X509Certificate(ours.pem).verify(createPublicKey(key))).toBe(true);
  });
});
