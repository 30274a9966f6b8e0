// Certificate issuance: the one building block the PKI bootstrap and the CSR signing controller
// share. It encodes exactly what it is told (policy such as backdating, TTL caps and signer
// constraints belongs to the caller) and lays the certificate out the way Go's
// x509.CreateCertificate does, so Go clients (kubectl) and OpenSSL accept it.
import { randomBytes, X509Certificate as NodeX509Certificate, type KeyObject } from 'node:crypto';
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
  certificate: x509.X509Certificate;
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

function randomSerial(): string {
  // 16 random bytes are a uniform integer in [0, 2^128); the library strips leading zero
  // bytes and adds a sign byte, so the encoded serial is always positive (Go rejects negatives).
  return randomBytes(16).toString('hex');
}

function hasSubject(subject: CertificateSubject | x509.Name): boolean {
  return subject instanceof x509.Name ? subject.toJSON().length > 0 : subjectToName(subject).toJSON().length > 0;
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
  return { cert, key, signing: await toSigningKey(key), keyId };
}

/** Everything issueCertificate takes except the issuer. */
export type LeafCertificateOptions = Omit<IssueCertificateOptions, 'caCert' | 'caKey'>;

export async function issueCertificate(opts: IssueCertificateOptions): Promise<IssuedCertificate> {
  checkValidityOrder(opts);
  return issueWithIssuer(await prepareIssuer(opts.caKey, opts.caCert), opts);
}

/** Issues with an already prepared issuer (see prepareIssuer). */
export async function issueWithIssuer(issuer: PreparedIssuer, opts: LeafCertificateOptions): Promise<IssuedCertificate> {
  checkValidityOrder(opts);
  const ca = issuer.cert;
  if (!ca && opts.publicKey !== undefined) {
    throw new Error('a self-signed certificate uses the issuer key; publicKey must be omitted');
  }
  const spki = publicKeyDer(ca ? requirePublicKey(opts.publicKey) : issuer.key);
  const subjectName = opts.subject instanceof x509.Name ? opts.subject : subjectToName(opts.subject);
  const { keyUsage, extKeyUsages } = toX509Usages(opts.usages);

  // Extension order and criticality follow Go: KU (critical), EKU, basic constraints
  // (critical), SKI, AKI, SAN (critical only when the subject is empty).
  const extensions: x509.Extension[] = [];
  if (keyUsage) extensions.push(new x509.KeyUsagesExtension(keyUsage, true));
  if (extKeyUsages.length) extensions.push(new x509.ExtendedKeyUsageExtension(extKeyUsages, false));
  extensions.push(new x509.BasicConstraintsExtension(opts.isCA === true, undefined, true));
  if (opts.isCA) extensions.push(await x509.SubjectKeyIdentifierExtension.create(new Uint8Array(spki), false));
  if (issuer.keyId) extensions.push(new x509.AuthorityKeyIdentifierExtension(issuer.keyId, false));
  const names: x509.JsonGeneralName[] = [
    ...(opts.sans?.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(opts.sans?.emailAddresses ?? []).map((value) => ({ type: 'email' as const, value })),
    ...(opts.sans?.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
    ...(opts.sans?.uris ?? []).map((value) => ({ type: 'url' as const, value })),
  ];
  if (names.length) extensions.push(new x509.SubjectAlternativeNameExtension(names, !hasSubject(subjectName)));

  const { cryptoKey, signingAlgorithm } = issuer.signing;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: opts.serialNumber === undefined ? randomSerial() : serialHex(opts.serialNumber),
    subject: subjectName,
    issuer: ca ? ca.subjectName : subjectName,
    notBefore: opts.notBefore,
    notAfter: opts.notAfter,
    publicKey: new Uint8Array(spki),
    signingKey: cryptoKey,
    signingAlgorithm,
    extensions,
  });
  const der = Buffer.from(cert.rawData);
  return { pem: cert.toString('pem') + '\n', der, certificate: cert };
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

function serialHex(n: bigint): string {
  if (n < 0n) throw new Error('serial number must not be negative');
  const hex = n.toString(16);
  return hex.length % 2 ? `0${hex}` : hex;
}
