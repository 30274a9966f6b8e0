// Test material for the signer: PKCS#10 requests built in-process (fast, any subject/SANs/key
// type), CAs, and an openssl wrapper. Keys are cached per process (RSA generation is slow).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueCertificate } from '../../issue';
import { generatePrivateKey, privateKeyToPem, type KeyAlgorithm } from '../../keys';
import { subtle, x509, type CryptoKey } from '../../x509lib';

export type RequestKeyKind = 'rsa-2048' | 'ecdsa-p256' | 'ecdsa-p384' | 'ed25519';

const keyParams: Record<RequestKeyKind, { gen: object; sign: object }> = {
  'rsa-2048': {
    gen: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    sign: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  },
  'ecdsa-p256': { gen: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
  'ecdsa-p384': { gen: { name: 'ECDSA', namedCurve: 'P-384' }, sign: { name: 'ECDSA', hash: 'SHA-384' } },
  ed25519: { gen: { name: 'Ed25519' }, sign: { name: 'Ed25519' } },
};

interface KeyPair {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

const keys = new Map<RequestKeyKind, Promise<KeyPair>>();

function keyPair(kind: RequestKeyKind): Promise<KeyPair> {
  let k = keys.get(kind);
  if (!k) {
    k = subtle.generateKey(keyParams[kind].gen as never, true, ['sign', 'verify']) as Promise<KeyPair>;
    keys.set(kind, k);
  }
  return k;
}

export interface RequestSpec {
  /** Subject in @peculiar/x509 JSON form, e.g. [{CN: ['x']}, {O: ['a']}]; default CN=system:node:n1, O=system:nodes. */
  subject?: x509.JsonName;
  dns?: string[];
  ips?: string[];
  emails?: string[];
  uris?: string[];
  /** Extra extensions to request (the signer must drop them). */
  extensions?: x509.Extension[];
  key?: RequestKeyKind;
}

export const nodeSubject: x509.JsonName = [{ CN: ['system:node:n1'] }, { O: ['system:nodes'] }];

/** A PEM "CERTIFICATE REQUEST". */
export async function makeRequest(spec: RequestSpec = {}): Promise<string> {
  const kind = spec.key ?? 'ecdsa-p256';
  const names: x509.JsonGeneralName[] = [
    ...(spec.dns ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(spec.ips ?? []).map((value) => ({ type: 'ip' as const, value })),
    ...(spec.emails ?? []).map((value) => ({ type: 'email' as const, value })),
    ...(spec.uris ?? []).map((value) => ({ type: 'url' as const, value })),
  ];
  const extensions = [...(spec.extensions ?? [])];
  if (names.length) extensions.push(new x509.SubjectAlternativeNameExtension(names));
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: new x509.Name(spec.subject ?? nodeSubject),
    keys: (await keyPair(kind)) as never,
    signingAlgorithm: keyParams[kind].sign as never,
    extensions,
  });
  return csr.toString('pem') + '\n';
}

/** spec.request as the API carries it. */
export function toRequestField(pem: string): string {
  return Buffer.from(pem).toString('base64');
}

/** The request with one signature bit flipped. */
export function breakSignature(pem: string): string {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  der[der.length - 1] ^= 0x01;
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE REQUEST-----\n${lines.join('\n')}\n-----END CERTIFICATE REQUEST-----\n`;
}

export interface TestCA {
  certPem: string;
  keyPem: string;
}

/** A self-signed CA valid over [notBefore, notAfter]. */
export async function makeCA(notBefore: Date, notAfter: Date, alg: KeyAlgorithm = 'ecdsa-p256', commonName = 'signer-ca'): Promise<TestCA> {
  const key = generatePrivateKey(alg);
  const ca = await issueCertificate({ caKey: key, subject: { commonName }, usages: ['cert sign', 'digital signature'], notBefore, notAfter, isCA: true });
  return { certPem: ca.pem, keyPem: privateKeyToPem(key) };
}

/** Runs openssl in a temp dir holding `files` (relative names); returns `readBack`'s content, or stdout. */
export function openssl(args: string[], files: Record<string, string> = {}, readBack?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'signer-'));
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    const stdout = execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
    return readBack === undefined ? stdout : readFileSync(join(dir, readBack), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
