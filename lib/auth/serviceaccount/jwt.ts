// Compact JWS (RFC 7515) signing and verification for ServiceAccount tokens, node:crypto only.
// Algorithms as upstream's signer (pkg/serviceaccount/jwt.go): RS256 for RSA keys, ES256/ES384/ES512
// for ECDSA P-256/P-384/P-521 with the raw r||s signature JWS requires. Nothing else verifies, in
// particular not "none" and not HMAC (a public key must never be usable as a shared secret).
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export type JwsAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

interface AlgorithmFacts {
  hash: 'sha256' | 'sha384' | 'sha512';
  keyType: 'rsa' | 'ec';
  /** OpenSSL's name of the curve an ECDSA key must use. */
  curve?: string;
  /** Length of the raw r||s signature. */
  signatureBytes?: number;
}

const algorithms: Record<JwsAlgorithm, AlgorithmFacts> = {
  RS256: { hash: 'sha256', keyType: 'rsa' },
  ES256: { hash: 'sha256', keyType: 'ec', curve: 'prime256v1', signatureBytes: 64 },
  ES384: { hash: 'sha384', keyType: 'ec', curve: 'secp384r1', signatureBytes: 96 },
  ES512: { hash: 'sha512', keyType: 'ec', curve: 'secp521r1', signatureBytes: 132 },
};

function isJwsAlgorithm(alg: unknown): alg is JwsAlgorithm {
  return typeof alg === 'string' && Object.prototype.hasOwnProperty.call(algorithms, alg);
}

/** A private key ready to sign: its algorithm and key id are fixed by the key itself. */
export interface SigningKey {
  key: KeyObject;
  alg: JwsAlgorithm;
  kid: string;
}

/** A token's structure is broken (segments, base64url, JSON): it is not a JWS at all. */
export class JwsFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JwsFormatError';
  }
}

/** The JWS algorithm a key signs with; throws for key types and curves upstream does not sign with. */
export function algorithmForKey(key: KeyObject): JwsAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    for (const [alg, facts] of Object.entries(algorithms)) if (facts.curve === curve) return alg as JwsAlgorithm;
    throw new Error('unknown private key curve, must be 256, 384, or 521');
  }
  throw new Error(`unsupported key type ${key.asymmetricKeyType ?? key.type}, must be RSA or ECDSA`);
}

/**
 * Upstream's key id: unpadded base64url of SHA-256 over the DER SubjectPublicKeyInfo. Derived
 * one-way so the id never reveals the key. A private key yields the id of its public half.
 */
export function keyIdFromPublicKey(key: KeyObject): string {
  let kid = keyIds.get(key);
  if (kid === undefined) {
    const pub = key.type === 'private' ? createPublicKey(key) : key;
    kid = createHash('sha256').update(pub.export({ type: 'spki', format: 'der' })).digest('base64url');
    keyIds.set(key, kid);
  }
  return kid;
}

/** Verification compares ids on every request; KeyObjects are immutable, so the id can be kept. */
const keyIds = new WeakMap<KeyObject, string>();

export function signingKeyFrom(privateKey: KeyObject): SigningKey {
  if (privateKey.type !== 'private') throw new Error('a signing key must be a private key');
  return { key: privateKey, alg: algorithmForKey(privateKey), kid: keyIdFromPublicKey(privateKey) };
}

function b64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

/** Strict base64url without padding (Go's RawURLEncoding): Buffer's decoder silently skips junk. */
function fromB64url(segment: string, what: string): Buffer {
  if (!/^[A-Za-z0-9_-]*$/.test(segment) || segment.length % 4 === 1) throw new JwsFormatError(`malformed JWS: ${what} is not base64url`);
  return Buffer.from(segment, 'base64url');
}

function parseJsonObject(bytes: Buffer, what: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new JwsFormatError(`malformed JWS: ${what} is not JSON`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new JwsFormatError(`malformed JWS: ${what} is not a JSON object`);
  return v as Record<string, unknown>;
}

/** Signs payload as a compact JWS with header {"alg","kid"}. */
export function signJws(payload: object, signer: SigningKey): string {
  const facts = algorithms[signer.alg];
  const signingInput = `${b64url(JSON.stringify({ alg: signer.alg, kid: signer.kid }))}.${b64url(JSON.stringify(payload))}`;
  const signature =
    facts.keyType === 'ec'
      ? sign(facts.hash, Buffer.from(signingInput), { key: signer.key, dsaEncoding: 'ieee-p1363' })
      : sign(facts.hash, Buffer.from(signingInput), signer.key);
  return `${signingInput}.${b64url(signature)}`;
}

export interface DecodedJws {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  /** `<header>.<payload>` exactly as received: what the signature covers. */
  signingInput: string;
  signature: Buffer;
}

/** Splits and decodes a compact JWS without verifying it. Throws JwsFormatError when malformed. */
export function decodeJws(token: string): DecodedJws {
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwsFormatError(`malformed JWS: expected 3 segments, found ${parts.length}`);
  const [h, p, s] = parts;
  const header = parseJsonObject(fromB64url(h, 'header'), 'header');
  for (const name of ['alg', 'kid'] as const) {
    if (header[name] !== undefined && typeof header[name] !== 'string') throw new JwsFormatError(`malformed JWS: header ${name} is not a string`);
  }
  return {
    header,
    payload: parseJsonObject(fromB64url(p, 'payload'), 'payload'),
    signingInput: `${h}.${p}`,
    signature: fromB64url(s, 'signature'),
  };
}

/** Whether key can check signatures of alg: the algorithm is fixed by the key, never by the token. */
function keyFits(key: KeyObject, facts: AlgorithmFacts): boolean {
  if (key.asymmetricKeyType !== facts.keyType) return false;
  return facts.keyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve === facts.curve;
}

function verifiesWith(jws: DecodedJws, facts: AlgorithmFacts, key: KeyObject): boolean {
  if (!keyFits(key, facts)) return false;
  const data = Buffer.from(jws.signingInput);
  try {
    return facts.keyType === 'ec'
      ? verify(facts.hash, data, { key, dsaEncoding: 'ieee-p1363' }, jws.signature)
      : verify(facts.hash, data, key, jws.signature);
  } catch {
    return false;
  }
}

/**
 * Verifies a decoded JWS against the candidate keys and returns its payload. As upstream, a kid in
 * the header narrows the candidates to keys with that id (none → "invalid signature, no keys
 * found"); without a kid every key is tried. Throws on an unsupported alg or a bad signature.
 */
export function verifyJws(jws: DecodedJws, publicKeys: readonly KeyObject[]): Record<string, unknown> {
  const alg = jws.header.alg;
  if (!isJwsAlgorithm(alg)) throw new Error(`unsupported JWS algorithm ${JSON.stringify(alg ?? '')}`);
  // RFC 7515 §4.1.11: extensions marked critical must be understood, and we understand none.
  if (jws.header.crit !== undefined) throw new Error('unsupported crit header');
  const facts = algorithms[alg];
  if (facts.signatureBytes !== undefined && jws.signature.length !== facts.signatureBytes) throw new Error('invalid signature');
  const kid = typeof jws.header.kid === 'string' ? jws.header.kid : '';
  const candidates = kid ? publicKeys.filter((k) => keyIdFromPublicKey(k) === kid) : publicKeys;
  if (candidates.length === 0) throw new Error('invalid signature, no keys found');
  for (const key of candidates) {
    if (verifiesWith(jws, facts, key.type === 'private' ? createPublicKey(key) : key)) return jws.payload;
  }
  throw new Error('invalid signature');
}
