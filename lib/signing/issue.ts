// Certificate issuance: the one building block the PKI bootstrap and the CSR signing controller
// share. It encodes exactly what it is told (policy such as backdating, TTL caps and signer
// constraints belongs to the caller) and lays the certificate out the way Go's
// x509.CreateCertificate does, so Go clients (kubectl) and OpenSSL accept it.
import { createHash, randomBytes, sign, X509Certificate as NodeX509Certificate, type KeyObject } from 'node:crypto';
import { bitString, booleanTrue, explicit, implicitPrimitive, namedBits, objectIdentifier, octetString, sequence, smallInteger, subjectPublicKeyBits, time, toPem, unsignedInteger } from './der';
import { ipToBytes } from './ip';
import { parsePrivateKey, publicKeyDer, toSigningKey, type PrivateKeyInput, type PublicKeyInput, type SigningKey } from './keys';
import { toX509Usages } from './usages';
import { x509 } from './x509lib';

/** Subject attributes, emitted in Go's pkix.Name order (C, ST, L, street, postalCode, O, OU, CN, serialNumber). */
export interface CertificateSubject {
  commonName?: string;
  organizations?: readonly string[];
  organizationalUnits?: readonly string[];
  countries?: readonly string[];
  provinces?: readonly string[];
  localities?: readonly string[];
  streetAddresses?: readonly string[];
  postalCodes?: readonly string[];
  serialNumber?: string;
}

export interface SubjectAltNames {
  dnsNames?: readonly string[];
  emailAddresses?: readonly string[];
  ipAddresses?: readonly string[];
  uris?: readonly string[];
}

export interface IssueCertificateOptions {
  /** Issuer certificate (PEM/DER or parsed). Omit to self-sign with caKey. */
  caCert?: string | Buffer | x509.X509Certificate;
  /** Issuer private key (self-signed: the certificate's own key). */
  caKey: PrivateKeyInput;
  /** Subject public key; defaults to caKey's public half when self-signing. */
  publicKey?: PublicKeyInput;
  /** Structured subject, or a parsed Name copied as-is (e.g. from a CSR). */
  subject: CertificateSubject | x509.Name;
  sans?: SubjectAltNames;
  /** CSR usage words (`digital signature`, `client auth`, …), see usages.ts. */
  usages: readonly string[];
  notBefore: Date;
  notAfter: Date;
  isCA?: boolean;
  /** Defaults to a uniformly random integer in [0, 2^128) like the upstream signer. */
  serialNumber?: bigint;
}

export interface IssuedCertificate {
  /** One PEM CERTIFICATE block with a trailing newline. */
  pem: string;
  der: Buffer;
  /** Parsed on first access (the signer never needs it). */
  readonly certificate: x509.X509Certificate;
}

const subjectOrder: ReadonlyArray<[keyof CertificateSubject, string]> = [
  ['countries', 'C'],
  ['provinces', 'ST'],
  ['localities', 'L'],
  ['streetAddresses', 'STREET'],
  ['postalCodes', '2.5.4.17'],
  ['organizations', 'O'],
  ['organizationalUnits', 'OU'],
  ['commonName', 'CN'],
  ['serialNumber', '2.5.4.5'],
];

/** One RDN per value (like `openssl req -subj`), so multi-valued O keeps its order everywhere. */
export function subjectToName(subject: CertificateSubject): x509.Name {
  const rdns: Array<Record<string, string[]>> = [];
  for (const [field, type] of subjectOrder) {
    const v = subject[field];
    const values = v === undefined ? [] : typeof v === 'string' ? [v] : [...v];
    for (const value of values) if (value !== '') rdns.push({ [type]: [value] });
  }
  return new x509.Name(rdns);
}

function toX509Cert(c: string | Buffer | x509.X509Certificate): x509.X509Certificate {
  if (c instanceof x509.X509Certificate) return c;
  return new x509.X509Certificate(typeof c === 'string' ? c : new Uint8Array(c));
}

/** 16 random bytes: a uniform integer in [0, 2^128), encoded positive (Go rejects negative serials). */
function randomSerial(): Buffer {
  return randomBytes(16);
}

/**
 * A parsed issuer, ready to sign many certificates: the key is imported into WebCrypto and
 * matched against the certificate once, not per certificate (the CSR signer issues in bulk).
 */
export interface PreparedIssuer {
  /** Issuer certificate; undefined for a self-signing issuer. */
  cert?: x509.X509Certificate;
  key: KeyObject;
  signing: SigningKey;
  /** The issuer's subject Name DER, each certificate's issuer field. */
  issuerName?: Buffer;
  /** The issuer's subject key identifier (hex), copied into each certificate's AKI. */
  keyId?: string;
}

/** Parses and checks issuer material once (`issuer key does not match the issuer certificate`, …). */
export async function prepareIssuer(caKey: PrivateKeyInput, caCert?: string | Buffer | x509.X509Certificate): Promise<PreparedIssuer> {
  const key = parsePrivateKey(caKey, 'issuer key');
  const cert = caCert === undefined ? undefined : toX509Cert(caCert);
  if (cert) {
    const nodeCa = new NodeX509Certificate(Buffer.from(cert.rawData));
    if (!nodeCa.checkPrivateKey(key)) throw new Error('issuer key does not match the issuer certificate');
  }
  const keyId = cert?.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  return { cert, key, signing: toSigningKey(key), issuerName: cert ? Buffer.from(cert.subjectName.toArrayBuffer()) : undefined, keyId };
}

/** Everything issueCertificate takes except the issuer. */
export type LeafCertificateOptions = Omit<IssueCertificateOptions, 'caCert' | 'caKey'>;

export async function issueCertificate(opts: IssueCertificateOptions): Promise<IssuedCertificate> {
  checkValidityOrder(opts);
  return issueWithIssuer(await prepareIssuer(opts.caKey, opts.caCert), opts);
}

const extensionOids = {
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
};

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(objectIdentifier(oid), booleanTrue(), octetString(value)) : sequence(objectIdentifier(oid), octetString(value));
}

/** GeneralNames in Go's order: DNS names, emails, IPs, URIs. */
function subjectAltNames(sans: SubjectAltNames): Buffer[] {
  const names: Buffer[] = [];
  for (const v of sans.dnsNames ?? []) names.push(implicitPrimitive(2, Buffer.from(v, 'latin1')));
  for (const v of sans.emailAddresses ?? []) names.push(implicitPrimitive(1, Buffer.from(v, 'latin1')));
  for (const v of sans.ipAddresses ?? []) {
    const bytes = ipToBytes(v);
    if (!bytes) throw new Error(`invalid IP address ${JSON.stringify(v)}`);
    names.push(implicitPrimitive(7, bytes));
  }
  for (const v of sans.uris ?? []) names.push(implicitPrimitive(6, Buffer.from(v, 'latin1')));
  return names;
}

/** An empty Name is the DER of an empty SEQUENCE. */
const emptyName = sequence();

/** Issues with an already prepared issuer (see prepareIssuer). */
export async function issueWithIssuer(issuer: PreparedIssuer, opts: LeafCertificateOptions): Promise<IssuedCertificate> {
  checkValidityOrder(opts);
  const ca = issuer.cert;
  if (!ca && opts.publicKey !== undefined) {
    throw new Error('a self-signed certificate uses the issuer key; publicKey must be omitted');
  }
  const spki = publicKeyDer(ca ? requirePublicKey(opts.publicKey) : issuer.key);
  const subjectName = Buffer.from((opts.subject instanceof x509.Name ? opts.subject : subjectToName(opts.subject)).toArrayBuffer());
  const { keyUsage, extKeyUsages } = toX509Usages(opts.usages);

  // Extension order and criticality follow Go: KU (critical), EKU, basic constraints
  // (critical), SKI, AKI, SAN (critical only when the subject is empty).
  const extensions: Buffer[] = [];
  if (keyUsage) extensions.push(extension(extensionOids.keyUsage, true, namedBits(keyUsage)));
  if (extKeyUsages.length) extensions.push(extension(extensionOids.extKeyUsage, false, sequence(...extKeyUsages.map(objectIdentifier))));
  extensions.push(extension(extensionOids.basicConstraints, true, opts.isCA ? sequence(booleanTrue()) : sequence()));
  // RFC 5280 §4.2.1.2 method 1, as Go: SHA-1 of the subjectPublicKey bits.
  if (opts.isCA) extensions.push(extension(extensionOids.subjectKeyIdentifier, false, octetString(createHash('sha1').update(subjectPublicKeyBits(spki)).digest())));
  if (issuer.keyId) extensions.push(extension(extensionOids.authorityKeyIdentifier, false, sequence(implicitPrimitive(0, Buffer.from(issuer.keyId, 'hex')))));
  const names = opts.sans ? subjectAltNames(opts.sans) : [];
  if (names.length) extensions.push(extension(extensionOids.subjectAltName, subjectName.equals(emptyName), sequence(...names)));

  const { key, hash, algorithmIdentifier } = issuer.signing;
  const tbs = sequence(
    explicit(0, smallInteger(2)),
    unsignedInteger(opts.serialNumber === undefined ? randomSerial() : serialBytes(opts.serialNumber)),
    algorithmIdentifier,
    issuer.issuerName ?? subjectName,
    sequence(time(opts.notBefore), time(opts.notAfter)),
    subjectName,
    spki,
    explicit(3, sequence(...extensions)),
  );
  const der = sequence(tbs, algorithmIdentifier, bitString(sign(hash, tbs, key)));
  let parsed: x509.X509Certificate | undefined;
  return {
    pem: toPem('CERTIFICATE', der),
    der,
    get certificate(): x509.X509Certificate {
      return (parsed ??= new x509.X509Certificate(new Uint8Array(der)));
    },
  };
}

function checkValidityOrder(opts: { notBefore: Date; notAfter: Date }): void {
  if (!(opts.notAfter.getTime() > opts.notBefore.getTime())) {
    throw new Error(`notAfter (${opts.notAfter.toISOString()}) must be after notBefore (${opts.notBefore.toISOString()})`);
  }
}

function requirePublicKey(k: PublicKeyInput | undefined): PublicKeyInput {
  if (k === undefined) throw new Error('publicKey is required when issuing with a CA certificate');
  return k;
}

function serialBytes(n: bigint): Buffer {
  if (n < 0n) throw new Error('serial number must not be negative');
  const hex = n.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
}
