// Parsing a PEM PKCS#10 request and checking its self-signature, with the error texts of Go's
// crypto/x509 (upstream's ParseCSR + CheckSignature), which clients see in validation errors.
// RSA (PKCS#1 v1.5 and PSS), ECDSA (P-224/256/384/521) and Ed25519 requests are supported.
import 'reflect-metadata';
import { Pkcs10CertificateRequest } from '@peculiar/x509';
import { createPublicKey, verify as cryptoVerify, constants, KeyObject } from 'node:crypto';
import { children, contentOf, decodeOid, decodeSmallInteger, DerElement, DerError, derTags, rawOf, readElement } from './der';
import { decodePem } from './pem';

export const certificateRequestBlockType = 'CERTIFICATE REQUEST';

/** A request whose structure parsed; the signature is not checked yet. */
export interface ParsedCertificateRequest {
  /** The library view (subject, extensions, SANs) for signers and admission checks. */
  request: Pkcs10CertificateRequest;
  /** DER of CertificationRequestInfo exactly as signed. */
  signedBytes: Uint8Array;
  signatureAlgorithm: SignatureAlgorithm;
  signature: Uint8Array;
  publicKey: ParsedPublicKey;
}

type PublicKeyAlgorithm = 'RSA' | 'ECDSA' | 'Ed25519';

/** What a Go *x509.CertificateRequest's PublicKey would be; null for algorithms Go leaves unparsed. */
export type ParsedPublicKey = { algorithm: PublicKeyAlgorithm; key: KeyObject } | null;

export interface SignatureAlgorithm {
  /** Go's SignatureAlgorithm name, e.g. "SHA256-RSA"; '' when unknown. */
  name: string;
  /** node:crypto digest name; null for Ed25519 (hash-less) or unknown algorithms. */
  hash: 'sha1' | 'sha256' | 'sha384' | 'sha512' | 'md5' | null;
  publicKeyAlgorithm: PublicKeyAlgorithm | null;
  pss: boolean;
}

/** A parse or signature failure; the message is what upstream prints. */
export class CertificateRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CertificateRequestError';
  }
}

const hashLength = { sha1: 20, sha256: 32, sha384: 48, sha512: 64, md5: 16 } as const;

const oids = {
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecPublicKey: '1.2.840.10045.2.1',
  ed25519: '1.3.101.112',
  rsaPss: '1.2.840.113549.1.1.10',
  mgf1: '1.2.840.113549.1.1.8',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
} as const;

/** Go's signatureAlgorithmDetails, keyed by OID (PSS is resolved from its parameters). */
const signatureAlgorithms: Readonly<Record<string, Omit<SignatureAlgorithm, 'pss'>>> = {
  '1.2.840.113549.1.1.4': { name: 'MD5-RSA', hash: 'md5', publicKeyAlgorithm: 'RSA' },
  '1.2.840.113549.1.1.5': { name: 'SHA1-RSA', hash: 'sha1', publicKeyAlgorithm: 'RSA' },
  '1.3.14.3.2.29': { name: 'SHA1-RSA', hash: 'sha1', publicKeyAlgorithm: 'RSA' },
  '1.2.840.113549.1.1.11': { name: 'SHA256-RSA', hash: 'sha256', publicKeyAlgorithm: 'RSA' },
  '1.2.840.113549.1.1.12': { name: 'SHA384-RSA', hash: 'sha384', publicKeyAlgorithm: 'RSA' },
  '1.2.840.113549.1.1.13': { name: 'SHA512-RSA', hash: 'sha512', publicKeyAlgorithm: 'RSA' },
  '1.2.840.10045.4.1': { name: 'ECDSA-SHA1', hash: 'sha1', publicKeyAlgorithm: 'ECDSA' },
  '1.2.840.10045.4.3.2': { name: 'ECDSA-SHA256', hash: 'sha256', publicKeyAlgorithm: 'ECDSA' },
  '1.2.840.10045.4.3.3': { name: 'ECDSA-SHA384', hash: 'sha384', publicKeyAlgorithm: 'ECDSA' },
  '1.2.840.10045.4.3.4': { name: 'ECDSA-SHA512', hash: 'sha512', publicKeyAlgorithm: 'ECDSA' },
  [oids.ed25519]: { name: 'Ed25519', hash: null, publicKeyAlgorithm: 'Ed25519' },
};

const pssHashes: Readonly<Record<string, 'sha256' | 'sha384' | 'sha512'>> = {
  [oids.sha256]: 'sha256',
  [oids.sha384]: 'sha384',
  [oids.sha512]: 'sha512',
};

const supportedCurves: ReadonlySet<string> = new Set([
  '1.3.132.0.33', // P-224
  '1.2.840.10045.3.1.7', // P-256
  '1.3.132.0.34', // P-384
  '1.3.132.0.35', // P-521
]);

const unknownAlgorithm: SignatureAlgorithm = { name: '', hash: null, publicKeyAlgorithm: null, pss: false };

/** The algorithm of an AlgorithmIdentifier; PSS only in the shape Go accepts (salt = hash length). */
function signatureAlgorithmOf(der: Uint8Array, ai: DerElement): SignatureAlgorithm {
  try {
    return signatureAlgorithmFromParts(der, ai);
  } catch {
    // Go reports an undecodable AlgorithmIdentifier as an unknown algorithm, not a parse error.
    return unknownAlgorithm;
  }
}

function signatureAlgorithmFromParts(der: Uint8Array, ai: DerElement): SignatureAlgorithm {
  const parts = children(der, ai);
  if (parts.length === 0 || parts[0].tag !== derTags.oid) return unknownAlgorithm;
  const oid = decodeOid(contentOf(der, parts[0]));
  const params = parts[1];
  if (oid === oids.ed25519) return params ? unknownAlgorithm : { ...signatureAlgorithms[oid], pss: false };
  if (oid !== oids.rsaPss) {
    const known = signatureAlgorithms[oid];
    return known ? { ...known, pss: false } : unknownAlgorithm;
  }
  if (!params || params.tag !== derTags.sequence) return unknownAlgorithm;
  let hash: string | undefined;
  let mgfHash: string | undefined;
  let salt = 20;
  for (const field of children(der, params)) {
    const inner = children(der, field)[0];
    if (!inner) return unknownAlgorithm;
    if (field.tag === 0xa0) hash = decodeOid(contentOf(der, children(der, inner)[0]));
    else if (field.tag === 0xa1) {
      const [mgfOid, mgfParams] = children(der, inner);
      if (decodeOid(contentOf(der, mgfOid)) !== oids.mgf1 || !mgfParams) return unknownAlgorithm;
      mgfHash = decodeOid(contentOf(der, children(der, mgfParams)[0]));
    } else if (field.tag === 0xa2) salt = decodeSmallInteger(contentOf(der, inner));
    else if (field.tag === 0xa3 && decodeSmallInteger(contentOf(der, inner)) !== 1) return unknownAlgorithm;
  }
  const h = hash ? pssHashes[hash] : undefined;
  if (!h || mgfHash !== hash || salt !== hashLength[h]) return unknownAlgorithm;
  const name = `${h.toUpperCase()}-RSAPSS`;
  return { name, hash: h, publicKeyAlgorithm: 'RSA', pss: true };
}

/** Go's parsePublicKey: known algorithms must parse; unknown ones leave the key nil. */
function publicKeyOf(der: Uint8Array, spki: DerElement): ParsedPublicKey {
  const [ai] = children(der, spki);
  const [oidEl, params] = children(der, ai);
  const oid = decodeOid(contentOf(der, oidEl));
  const load = (failure: string): KeyObject => {
    try {
      return createPublicKey({ key: Buffer.from(rawOf(der, spki)), format: 'der', type: 'spki' });
    } catch {
      throw new CertificateRequestError(failure);
    }
  };
  switch (oid) {
    case oids.rsaEncryption:
      if (!params || params.tag !== derTags.null) throw new CertificateRequestError('x509: RSA key missing NULL parameters');
      return { algorithm: 'RSA', key: load('x509: invalid RSA public key') };
    case oids.ecPublicKey:
      if (!params || params.tag !== derTags.oid) throw new CertificateRequestError('x509: invalid ECDSA parameters');
      if (!supportedCurves.has(decodeOid(contentOf(der, params)))) throw new CertificateRequestError('x509: unsupported elliptic curve');
      return { algorithm: 'ECDSA', key: load('x509: failed to unmarshal elliptic curve point') };
    case oids.ed25519:
      if (params) throw new CertificateRequestError('x509: Ed25519 key encoded with illegal parameters');
      return { algorithm: 'Ed25519', key: load('x509: wrong Ed25519 public key size') };
    default:
      return null;
  }
}

function goKeyType(alg: PublicKeyAlgorithm): string {
  return alg === 'RSA' ? '*rsa.PublicKey' : alg === 'ECDSA' ? '*ecdsa.PublicKey' : 'ed25519.PublicKey';
}

/** Parses DER the way Go's x509.ParseCertificateRequest does (structure and public key only). */
export function parseCertificateRequestDer(der: Uint8Array): ParsedCertificateRequest {
  try {
    const outer = readElement(der, 0);
    if (outer.tag !== derTags.sequence) throw new DerError('asn1: structure error: tags don\'t match');
    if (outer.end !== der.length) throw new DerError('asn1: syntax error: trailing data');
    const [info, sigAlg, sig] = children(der, outer);
    if (!info || !sigAlg || !sig || info.tag !== derTags.sequence || sigAlg.tag !== derTags.sequence || sig.tag !== derTags.bitString) {
      throw new DerError('asn1: structure error: tags don\'t match');
    }
    const infoParts = children(der, info);
    if (infoParts.length < 3 || infoParts[2].tag !== derTags.sequence) throw new DerError('asn1: structure error: tags don\'t match');
    const publicKey = publicKeyOf(der, infoParts[2]);
    let request: Pkcs10CertificateRequest;
    try {
      request = new Pkcs10CertificateRequest(Buffer.from(der));
    } catch {
      throw new CertificateRequestError('x509: malformed certificate request');
    }
    const sigContent = contentOf(der, sig);
    return {
      request,
      signedBytes: rawOf(der, info),
      signatureAlgorithm: signatureAlgorithmOf(der, sigAlg),
      // A BIT STRING's first content byte counts unused bits; signatures use whole bytes.
      signature: sigContent.subarray(1),
      publicKey,
    };
  } catch (e) {
    if (e instanceof CertificateRequestError) throw e;
    throw new CertificateRequestError(e instanceof DerError ? e.message : 'x509: malformed certificate request');
  }
}

/** Upstream's ParseCSR: the first PEM block must be a CERTIFICATE REQUEST. */
export function parseCertificateRequestPem(pem: Buffer): ParsedCertificateRequest {
  const found = decodePem(pem);
  if (!found || found.block.type !== certificateRequestBlockType) {
    throw new CertificateRequestError('PEM block type must be CERTIFICATE REQUEST');
  }
  return parseCertificateRequestDer(found.block.bytes);
}

/** Go's CertificateRequest.CheckSignature (SHA-1 allowed for requests, MD5 refused). */
export function checkRequestSignature(csr: ParsedCertificateRequest): void {
  const alg = csr.signatureAlgorithm;
  if (alg.hash === null && alg.publicKeyAlgorithm !== 'Ed25519') {
    throw new CertificateRequestError('x509: cannot verify signature: algorithm unimplemented');
  }
  if (alg.hash === 'md5') throw new CertificateRequestError(`x509: cannot verify signature: insecure algorithm ${alg.name}`);
  const pub = csr.publicKey;
  if (!pub) throw new CertificateRequestError('x509: cannot verify signature: algorithm unimplemented');
  if (pub.algorithm !== alg.publicKeyAlgorithm) {
    throw new CertificateRequestError(
      `x509: signature algorithm specifies an ${alg.publicKeyAlgorithm} public key, but have public key of type ${goKeyType(pub.algorithm)}`,
    );
  }
  const data = Buffer.from(csr.signedBytes);
  const sig = Buffer.from(csr.signature);
  let ok: boolean;
  try {
    if (pub.algorithm === 'Ed25519') ok = cryptoVerify(null, data, pub.key, sig);
    else if (pub.algorithm === 'ECDSA') ok = cryptoVerify(alg.hash, data, { key: pub.key, dsaEncoding: 'der' }, sig);
    else if (alg.pss) {
      ok = cryptoVerify(alg.hash, data, { key: pub.key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: hashLength[alg.hash ?? 'sha256'] }, sig);
    } else ok = cryptoVerify(alg.hash, data, { key: pub.key, padding: constants.RSA_PKCS1_PADDING }, sig);
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new CertificateRequestError(
      pub.algorithm === 'RSA'
        ? 'crypto/rsa: verification error'
        : pub.algorithm === 'ECDSA'
          ? 'x509: ECDSA verification failure'
          : 'x509: Ed25519 verification failure',
    );
  }
}

/**
 * Rule 1 of errors.md §5: the error text for spec.request (PEM bytes), or null when the request
 * parses and its self-signature verifies.
 */
export function certificateRequestError(pem: Buffer): string | null {
  try {
    checkRequestSignature(parseCertificateRequestPem(pem));
    return null;
  } catch (e) {
    if (e instanceof CertificateRequestError) return e.message;
    throw e;
  }
}
