// Reading a PKCS#10 request the way the upstream signer sees it (Go's x509.CertificateRequest):
// subject fields, the four SAN kinds Go keeps, the public key, and the self-signature check.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { decodeOid, readElement } from '../der';
import { ipToBytes } from '../ip';
import type { CertificateSubject, SubjectAltNames } from '../issue';
import { x509 } from '../x509lib';

export const certificateRequestPemType = 'CERTIFICATE REQUEST';

/** Key types the signer accepts in a request; anything else is 'unsupported' and fails the signature check. */
export type RequestKeyType = 'RSA' | 'ECDSA' | 'Ed25519' | 'unsupported';

export interface RequestPublicKey {
  type: RequestKeyType;
  /** WebCrypto curve name for ECDSA keys (P-256, P-384, P-521). */
  namedCurve?: string;
  /** SubjectPublicKeyInfo DER, copied verbatim into the certificate. */
  spki: Uint8Array;
}

export interface ParsedCertificateRequest {
  /** The library view of the request (attributes, extensions, raw DER). */
  request: x509.Pkcs10CertificateRequest;
  /** The subject exactly as requested. */
  subjectName: x509.Name;
  /**
   * The subject as Go's pkix.Name holds it: the well-known attributes only (C, ST, L, STREET,
   * postalCode, O, OU, CN, serialNumber); this is what the upstream signer re-encodes.
   */
  subject: CertificateSubject;
  /** Go's Subject.CommonName: the last CN attribute, '' when there is none. */
  commonName: string;
  /** Every O value in order. */
  organizations: string[];
  dnsNames: string[];
  emailAddresses: string[];
  /** IP SANs as text; IPv4-mapped IPv6 addresses are shown as IPv4 (Go encodes them in 4 bytes). */
  ipAddresses: string[];
  uris: string[];
  publicKey: RequestPublicKey;
}

/** A malformed request; the message is the text the signer reports. */
export class CertificateRequestParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CertificateRequestParseError';
  }
}

const oid = {
  commonName: '2.5.4.3',
  serialNumber: '2.5.4.5',
  country: '2.5.4.6',
  locality: '2.5.4.7',
  province: '2.5.4.8',
  streetAddress: '2.5.4.9',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
  postalCode: '2.5.4.17',
  subjectAltName: '2.5.29.17',
} as const;

const pemBlock = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/;

/** Go's pem.Decode + upstream's ParseCSR: the first PEM block must be a CERTIFICATE REQUEST. */
function requestDer(pem: string | Uint8Array): Uint8Array {
  const text = typeof pem === 'string' ? pem : Buffer.from(pem).toString('latin1');
  const m = pemBlock.exec(text);
  if (!m || m[1] !== certificateRequestPemType) throw new CertificateRequestParseError('PEM block type must be CERTIFICATE REQUEST');
  return new Uint8Array(Buffer.from(m[2].replace(/\s+/g, ''), 'base64'));
}

function lastOf(values: string[]): string | undefined {
  return values.length ? values[values.length - 1] : undefined;
}

function goSubject(name: x509.Name): CertificateSubject {
  const field = (id: string): string[] => name.getField(id);
  return {
    countries: field(oid.country),
    provinces: field(oid.province),
    localities: field(oid.locality),
    streetAddresses: field(oid.streetAddress),
    postalCodes: field(oid.postalCode),
    organizations: field(oid.organization),
    organizationalUnits: field(oid.organizationalUnit),
    commonName: lastOf(field(oid.commonName)),
    serialNumber: lastOf(field(oid.serialNumber)),
  };
}

function ipText(value: string): string {
  const bytes = ipToBytes(value);
  const mapped = bytes?.length === 16 && bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? [...bytes.subarray(12)].join('.') : value;
}

type RequestSANs = { [K in keyof SubjectAltNames]-?: string[] };

function subjectAltNames(request: x509.Pkcs10CertificateRequest): RequestSANs {
  const out: RequestSANs = { dnsNames: [], emailAddresses: [], ipAddresses: [], uris: [] };
  // Go reads every SAN extension of the extensionRequest attribute; other name forms are ignored.
  for (const ext of request.getExtensions(oid.subjectAltName)) {
    const names = ext instanceof x509.SubjectAlternativeNameExtension ? ext : new x509.SubjectAlternativeNameExtension(ext.rawData);
    for (const n of names.names.items) {
      if (n.type === 'dns') out.dnsNames.push(n.value);
      else if (n.type === 'email') out.emailAddresses.push(n.value);
      else if (n.type === 'ip') out.ipAddresses.push(ipText(n.value));
      else if (n.type === 'url') out.uris.push(n.value);
    }
  }
  return out;
}

function publicKeyOf(request: x509.Pkcs10CertificateRequest): RequestPublicKey {
  const key = request.publicKey;
  const spki = new Uint8Array(key.rawData);
  let algorithm: { name?: string; namedCurve?: string };
  try {
    algorithm = key.algorithm as { name?: string; namedCurve?: string };
  } catch {
    return { type: 'unsupported', spki };
  }
  switch (algorithm.name) {
    case 'RSASSA-PKCS1-v1_5':
    case 'RSA-PSS':
      return { type: 'RSA', spki };
    case 'ECDSA':
      return algorithm.namedCurve && ['P-256', 'P-384', 'P-521'].includes(algorithm.namedCurve)
        ? { type: 'ECDSA', namedCurve: algorithm.namedCurve, spki }
        : { type: 'unsupported', spki };
    case 'Ed25519':
      return { type: 'Ed25519', spki };
    default:
      return { type: 'unsupported', spki };
  }
}

/**
 * Parses a PEM request (the base64-decoded `spec.request`). Throws CertificateRequestParseError;
 * the signature is not checked here (see verifyCertificateRequestSignature).
 */
export function parseCertificateRequest(pem: string | Uint8Array): ParsedCertificateRequest {
  const der = requestDer(pem);
  let request: x509.Pkcs10CertificateRequest;
  let subjectName: x509.Name;
  let sans: RequestSANs;
  try {
    request = new x509.Pkcs10CertificateRequest(der);
    subjectName = request.subjectName;
    sans = subjectAltNames(request);
  } catch (e) {
    throw new CertificateRequestParseError(`x509: malformed certificate request: ${(e as Error).message}`);
  }
  const subject = goSubject(subjectName);
  return {
    request,
    subjectName,
    subject,
    commonName: subject.commonName ?? '',
    organizations: [...(subject.organizations ?? [])],
    ...sans,
    publicKey: publicKeyOf(request),
  };
}

/** Go's CheckSignature failure texts per key type. */
const verificationFailure: Record<Exclude<RequestKeyType, 'unsupported'>, string> = {
  RSA: 'crypto/rsa: verification error',
  ECDSA: 'x509: ECDSA verification failure',
  Ed25519: 'x509: Ed25519 verification failure',
};

/** Signature algorithms checked with node:crypto directly: OID → digest and the key type it needs. */
const directSignatureAlgorithms: ReadonlyMap<string, { hash: string | null; keyType: Exclude<RequestKeyType, 'unsupported'> }> = new Map([
  ['1.2.840.113549.1.1.11', { hash: 'sha256', keyType: 'RSA' }],
  ['1.2.840.113549.1.1.12', { hash: 'sha384', keyType: 'RSA' }],
  ['1.2.840.113549.1.1.13', { hash: 'sha512', keyType: 'RSA' }],
  ['1.2.840.10045.4.3.2', { hash: 'sha256', keyType: 'ECDSA' }],
  ['1.2.840.10045.4.3.3', { hash: 'sha384', keyType: 'ECDSA' }],
  ['1.2.840.10045.4.3.4', { hash: 'sha512', keyType: 'ECDSA' }],
  ['1.3.101.112', { hash: null, keyType: 'Ed25519' }],
] as const);

/**
 * The request's signed bytes, signature algorithm and signature, when the algorithm is one
 * node:crypto checks synchronously for this key type; undefined sends it to the library.
 */
function directVerification(csr: ParsedCertificateRequest): { hash: string | null; tbs: Uint8Array; signature: Uint8Array } | undefined {
  const der = new Uint8Array(csr.request.rawData);
  const outer = readElement(der);
  const info = readElement(der, outer.start);
  const algorithm = readElement(der, info.end);
  const signature = readElement(der, algorithm.end);
  const oid = readElement(der, algorithm.start);
  if (oid.tag !== 0x06 || signature.tag !== 0x03 || der[signature.start] !== 0) return undefined;
  const found = directSignatureAlgorithms.get(decodeOid(der.subarray(oid.start, oid.end)));
  if (!found || found.keyType !== csr.publicKey.type) return undefined;
  return { hash: found.hash, tbs: der.subarray(outer.start, info.end), signature: der.subarray(signature.start + 1, signature.end) };
}

const keyObjects = new WeakMap<ParsedCertificateRequest, KeyObject>();

/** The request's public key as a KeyObject, made once per parsed request (verification and issuance share it). */
export function requestPublicKeyObject(csr: ParsedCertificateRequest): KeyObject {
  let key = keyObjects.get(csr);
  if (!key) keyObjects.set(csr, (key = createPublicKey({ key: Buffer.from(csr.publicKey.spki), format: 'der', type: 'spki' })));
  return key;
}

/** Checks the request's self-signature; throws `unable to verify certificate request signature: …`. */
export async function verifyCertificateRequestSignature(csr: ParsedCertificateRequest): Promise<void> {
  const prefix = 'unable to verify certificate request signature: ';
  const type = csr.publicKey.type;
  if (type === 'unsupported') throw new Error(`${prefix}x509: cannot verify signature: algorithm unimplemented`);
  let ok: boolean;
  try {
    // The common algorithms synchronously (WebCrypto's thread-pool round trip was most of a signature's wall time).
    const direct = directVerification(csr);
    ok = direct
      ? verify(direct.hash, direct.tbs, requestPublicKeyObject(csr), direct.signature)
      : await csr.request.verify();
  } catch (e) {
    // Mismatched or unknown signature algorithms make WebCrypto throw instead of answering false.
    throw new Error(`${prefix}x509: cannot verify signature: ${(e as Error).message}`);
  }
  if (!ok) throw new Error(prefix + verificationFailure[type]);
}
