// Private/public key handling: generation, PEM (PKCS#8 / SPKI) encoding, and the bridge from
// node:crypto KeyObjects to the signature algorithm a certificate names.
import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject } from 'node:crypto';
import { nullValue, objectIdentifier, sequence } from './der';

/** Key types the signing code can generate and sign with. */
export type KeyAlgorithm = 'ecdsa-p256' | 'ecdsa-p384' | 'rsa-2048' | 'ed25519';

/** Anything that names a private key: a KeyObject, or PEM text (PKCS#8, PKCS#1 or SEC1). */
export type PrivateKeyInput = KeyObject | string | Buffer;

/**
 * Anything that names a public key: a KeyObject (public or private), PEM text, or SPKI DER
 * bytes (e.g. the `rawData` of a parsed CSR's public key).
 */
export type PublicKeyInput = KeyObject | string | Buffer | Uint8Array | ArrayBuffer;

export function generatePrivateKey(algorithm: KeyAlgorithm = 'ecdsa-p256'): KeyObject {
  switch (algorithm) {
    case 'ecdsa-p256':
      return generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    case 'ecdsa-p384':
      return generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
    case 'rsa-2048':
      return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    case 'ed25519':
      return generateKeyPairSync('ed25519').privateKey;
  }
}

/** PEM "PRIVATE KEY" (PKCS#8), the form every consumer (node, Go, openssl, curl) reads. */
export function privateKeyToPem(key: KeyObject): string {
  return key.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** Parses a private key; the error names `what` so the caller's flag or file shows up. */
export function parsePrivateKey(input: PrivateKeyInput, what = 'private key'): KeyObject {
  if (input instanceof KeyObject) {
    if (input.type !== 'private') throw new Error(`${what}: not a private key`);
    return input;
  }
  try {
    return createPrivateKey(input);
  } catch (e) {
    throw new Error(`${what}: cannot parse private key: ${(e as Error).message}`);
  }
}

/** SPKI DER of a public key (from a public or private KeyObject, PEM, or DER bytes). */
export function publicKeyDer(input: PublicKeyInput): Buffer {
  if (input instanceof KeyObject) {
    const pub = input.type === 'private' ? createPublicKey(input) : input;
    return pub.export({ type: 'spki', format: 'der' });
  }
  if (typeof input === 'string' || (Buffer.isBuffer(input) && input.subarray(0, 11).toString() === '-----BEGIN ')) {
    return createPublicKey(input).export({ type: 'spki', format: 'der' });
  }
  const bytes = input instanceof ArrayBuffer ? Buffer.from(input) : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  // Round-trip through node to reject garbage early with a clear error.
  return createPublicKey({ key: bytes, format: 'der', type: 'spki' }).export({ type: 'spki', format: 'der' });
}

/** A private key with the certificate signature algorithm Go would choose for it. */
export interface SigningKey {
  key: KeyObject;
  /** The digest node:crypto signs with; null for Ed25519, which hashes internally. */
  hash: string | null;
  /** The AlgorithmIdentifier DER that names the signature in a certificate. */
  algorithmIdentifier: Buffer;
}

const signatureAlgorithms = {
  sha256WithRSA: sequence(objectIdentifier('1.2.840.113549.1.1.11'), nullValue()),
  ecdsaWithSHA256: sequence(objectIdentifier('1.2.840.10045.4.3.2')),
  ecdsaWithSHA384: sequence(objectIdentifier('1.2.840.10045.4.3.3')),
  ecdsaWithSHA512: sequence(objectIdentifier('1.2.840.10045.4.3.4')),
  ed25519: sequence(objectIdentifier('1.3.101.112')),
};

/**
 * The signature parameters for certificates signed by `key`, following Go's defaults: SHA-256
 * for RSA and P-256, SHA-384 for P-384, SHA-512 for P-521; Ed25519 signs without a separate hash.
 */
export function toSigningKey(key: KeyObject): SigningKey {
  switch (key.asymmetricKeyType) {
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      const map: Record<string, [string, Buffer]> = {
        prime256v1: ['sha256', signatureAlgorithms.ecdsaWithSHA256],
        secp384r1: ['sha384', signatureAlgorithms.ecdsaWithSHA384],
        secp521r1: ['sha512', signatureAlgorithms.ecdsaWithSHA512],
      };
      const found = curve ? map[curve] : undefined;
      if (!found) throw new Error(`unsupported ECDSA curve ${curve ?? '(unknown)'}`);
      return { key, hash: found[0], algorithmIdentifier: found[1] };
    }
    case 'rsa':
      return { key, hash: 'sha256', algorithmIdentifier: signatureAlgorithms.sha256WithRSA };
    case 'ed25519':
      return { key, hash: null, algorithmIdentifier: signatureAlgorithms.ed25519 };
    default:
      throw new Error(`unsupported signing key type ${key.asymmetricKeyType ?? '(unknown)'}`);
  }
}
