import { execFileSync } from 'node:child_process';
import { createPublicKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { certificateFacts, ekuOid } from './certs';
import { issueCertificate, subjectToName } from './issue';
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
