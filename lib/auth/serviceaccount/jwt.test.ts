import { execFileSync } from 'node:child_process';
import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { algorithmForKey, decodeJws, JwsFormatError, keyIdFromPublicKey, signingKeyFrom, signJws, verifyJws, type SigningKey } from './jwt';

// Key fixtures and their key ids from upstream's pkg/serviceaccount/jwt_test.go (fake test keys).
const upstreamRsaPublicKey = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA249XwEo9k4tM8fMxV7zx
OhcrP+WvXn917koM5Qr2ZXs4vo26e4ytdlrV0bQ9SlcLpQVSYjIxNfhTZdDt+ecI
zshKuv1gKIxbbLQMOuK1eA/4HALyEkFgmS/tleLJrhc65tKPMGD+pKQ/xhmzRuCG
51RoiMgbQxaCyYxGfNLpLAZK9L0Tctv9a0mJmGIYnIOQM4kC1A1I1n3EsXMWmeJU
j7OTh/AjjCnMnkgvKT2tpKxYQ59PgDgU8Ssc7RDSmSkLxnrv+OrN80j6xrw0OjEi
B4Ycr0PqfzZcvy8efTtFQ/Jnc4Bp1zUtFXt7+QeevePtQ2EcyELXE0i63T1CujRM
WwIDAQAB
-----END PUBLIC KEY-----
`;
const upstreamEcdsaPrivateKey = `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIEZmTmUhuanLjPA2CLquXivuwBDHTt5XYwgIr/kA1LtRoAoGCCqGSM49
AwEHoUQDQgAEH6cuzP8XuD5wal6wf9M6xDljTOPLX2i8uIp/C/ASqiIGUeeKQtX0
/IR3qCXyThP/dbCiHrF3v1cuhBOHY8CLVg==
-----END EC PRIVATE KEY-----`;

const b64 = (v: string | Buffer): string => Buffer.from(v).toString('base64url');
const json = (v: unknown): string => b64(JSON.stringify(v));

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const p256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
const p521 = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
const otherP256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const payload = { iss: 'https://issuer', sub: 'system:serviceaccount:ns:sa', n: 1 };

describe('key ids and algorithms', () => {
  test.each<[string, KeyObject, string]>([
    ['RSA public key', createPublicKey(upstreamRsaPublicKey), 'JHJehTTTZlsspKHT-GaJxK7Kd1NQgZJu3fyK6K_QDYU'],
    ['ECDSA private key (id of its public half)', createPrivateKey(upstreamEcdsaPrivateKey), 'SoABiieYuNx4UdqYvZRVeuC6SihxgLrhLy9peHMHpTc'],
    ['ECDSA public key', createPublicKey(createPrivateKey(upstreamEcdsaPrivateKey)), 'SoABiieYuNx4UdqYvZRVeuC6SihxgLrhLy9peHMHpTc'],
  ])('%s matches upstream keyIDFromPublicKey', (_n, key, kid) => {
    expect(keyIdFromPublicKey(key)).toBe(kid);
  });

  test.each<[string, string, KeyObject]>([
    ['RSA', 'RS256', rsa.privateKey],
    ['P-256', 'ES256', p256.privateKey],
    ['P-384', 'ES384', p384.privateKey],
    ['P-521', 'ES512', p521.privateKey],
  ])('%s signs with %s', (_n, alg, key) => {
    expect(algorithmForKey(key)).toBe(alg);
  });

  test.each<[string, KeyObject, string]>([
    ['Ed25519', generateKeyPairSync('ed25519').privateKey, 'unsupported key type ed25519, must be RSA or ECDSA'],
    ['secp256k1', generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey, 'unknown private key curve, must be 256, 384, or 521'],
  ])('%s is refused', (_n, key, message) => {
    expect(() => algorithmForKey(key)).toThrow(message);
  });

  test('a public key cannot sign', () => {
    expect(() => signingKeyFrom(p256.publicKey)).toThrow('a signing key must be a private key');
  });
});

describe('sign and verify round trips', () => {
  test.each<[string, KeyObject, KeyObject, string]>([
    ['RS256', rsa.privateKey, rsa.publicKey, 'RS256'],
    ['ES256', p256.privateKey, p256.publicKey, 'ES256'],
    ['ES384', p384.privateKey, p384.publicKey, 'ES384'],
    ['ES512', p521.privateKey, p521.publicKey, 'ES512'],
  ])('%s', (_n, priv, pub, alg) => {
    const signer = signingKeyFrom(priv);
    const token = signJws(payload, signer);
    const jws = decodeJws(token);
    expect(jws.header).toEqual({ alg, kid: keyIdFromPublicKey(pub) });
    expect(Object.keys(jws.header)).toEqual(['alg', 'kid']);
    // Key rotation: a token verifies among several keys, whatever their order.
    expect(verifyJws(jws, [otherP256.publicKey, rsa.publicKey, pub, p384.publicKey])).toEqual(payload);
  });

  test('ES256 signatures are raw r||s of 64 bytes', () => {
    const jws = decodeJws(signJws(payload, signingKeyFrom(p256.privateKey)));
    expect(jws.signature.length).toBe(64);
  });

  test('a token signed by hand with ieee-p1363 and no kid verifies', () => {
    const input = `${json({ alg: 'ES256', typ: 'JWT' })}.${json(payload)}`;
    const sig = sign('sha256', Buffer.from(input), { key: p256.privateKey, dsaEncoding: 'ieee-p1363' });
    expect(verifyJws(decodeJws(`${input}.${b64(sig)}`), [otherP256.publicKey, p256.publicKey])).toEqual(payload);
  });
});

describe('interoperability with openssl signatures', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'jws-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** openssl's ECDSA output is DER SEQUENCE{r, s}; JWS wants each integer left-padded to 32 bytes. */
  function derToRaw(der: Buffer): Buffer {
    let i = 2; // SEQUENCE tag and (short) length
    const int = (): Buffer => {
      const len = der[i + 1];
      const v = der.subarray(i + 2, i + 2 + len);
      i += 2 + len;
      const trimmed = v[0] === 0 ? v.subarray(1) : v;
      return Buffer.concat([Buffer.alloc(32 - trimmed.length), trimmed]);
    };
    return Buffer.concat([int(), int()]);
  }

  test.each<[string, KeyObject, KeyObject, boolean]>([
    ['ES256', p256.privateKey, p256.publicKey, true],
    ['RS256', rsa.privateKey, rsa.publicKey, false],
  ])('%s signed by openssl dgst verifies', (alg, priv, pub, ecdsa) => {
    const keyFile = path.join(dir, `${alg}.key`);
    const inputFile = path.join(dir, `${alg}.in`);
    writeFileSync(keyFile, priv.export({ type: 'pkcs8', format: 'pem' }));
    const input = `${json({ alg, kid: keyIdFromPublicKey(pub) })}.${json(payload)}`;
    writeFileSync(inputFile, input);
    const sig = execFileSync('openssl', ['dgst', '-sha256', '-sign', keyFile, inputFile]);
    const token = `${input}.${b64(ecdsa ? derToRaw(sig) : sig)}`;
    expect(verifyJws(decodeJws(token), [pub])).toEqual(payload);
    if (ecdsa) expect(() => verifyJws(decodeJws(`${input}.${b64(sig)}`), [pub])).toThrow('invalid signature');
  });
});

describe('verification failures', () => {
  const es256 = signingKeyFrom(p256.privateKey);
  const rs256 = signingKeyFrom(rsa.privateKey);
  const good = signJws(payload, es256);
  const [h, p, s] = good.split('.');
  const flip = (seg: string): string => {
    const bytes = Buffer.from(seg, 'base64url');
    bytes[5] ^= 1;
    return b64(bytes);
  };
  const hmac = (): string => {
    // The classic confusion attack: HS256 keyed with the verifier's public key PEM.
    const input = `${json({ alg: 'HS256', kid: es256.kid })}.${p}`;
    const secret = p256.publicKey.export({ type: 'spki', format: 'pem' });
    return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
  };

  test.each<[string, string, KeyObject[], string]>([
    ['tampered payload', `${h}.${json({ ...payload, sub: 'system:serviceaccount:ns:admin' })}.${s}`, [p256.publicKey], 'invalid signature'],
    ['tampered signature', `${h}.${p}.${flip(s)}`, [p256.publicKey], 'invalid signature'],
    ['alg none', `${json({ alg: 'none' })}.${p}.`, [p256.publicKey], 'unsupported JWS algorithm "none"'],
    ['alg none with the real signature', `${json({ alg: 'none', kid: es256.kid })}.${p}.${s}`, [p256.publicKey], 'unsupported JWS algorithm "none"'],
    ['missing alg', `${json({ kid: es256.kid })}.${p}.${s}`, [p256.publicKey], 'unsupported JWS algorithm ""'],
    ['HS256 keyed with the public key', hmac(), [p256.publicKey], 'unsupported JWS algorithm "HS256"'],
    ['ES256 token claiming RS256', `${json({ alg: 'RS256', kid: es256.kid })}.${p}.${s}`, [p256.publicKey], 'invalid signature'],
    ['ES256 token claiming ES384', `${json({ alg: 'ES384', kid: es256.kid })}.${p}.${s}`, [p256.publicKey], 'invalid signature'],
    ['wrong key, no kid', `${json({ alg: 'ES256' })}.${p}.${s}`, [otherP256.publicKey, rsa.publicKey], 'invalid signature'],
    ['kid of no configured key', good, [otherP256.publicKey], 'invalid signature, no keys found'],
    ['no keys at all', good, [], 'invalid signature, no keys found'],
    ['RSA key cannot check an ES256 token', `${json({ alg: 'ES256', kid: rs256.kid })}.${p}.${s}`, [rsa.publicKey], 'invalid signature'],
    ['critical header extension', `${json({ alg: 'ES256', kid: es256.kid, crit: ['exp'] })}.${p}.${s}`, [p256.publicKey], 'unsupported crit header'],
    ['short ES256 signature', `${h}.${p}.${b64(Buffer.from(s, 'base64url').subarray(1))}`, [p256.publicKey], 'invalid signature'],
  ])('%s', (_n, token, keys, message) => {
    expect(() => verifyJws(decodeJws(token), keys)).toThrow(message);
  });

  test('the untampered token passes, so the cases above fail for their stated reason', () => {
    expect(verifyJws(decodeJws(good), [p256.publicKey])).toEqual(payload);
  });

  test('a private key among the verification keys works through its public half', () => {
    expect(verifyJws(decodeJws(good), [p256.privateKey])).toEqual(payload);
  });
});

describe('decodeJws rejects malformed tokens', () => {
  const signer: SigningKey = signingKeyFrom(p256.privateKey);
  const [h, p, s] = signJws(payload, signer).split('.');
  test.each<[string, string, string]>([
    ['two segments', `${h}.${p}`, 'expected 3 segments, found 2'],
    ['four segments', `${h}.${p}.${s}.x`, 'expected 3 segments, found 4'],
    ['not a JWT at all', 'invalid token', 'expected 3 segments, found 1'],
    ['standard base64 characters', `${h}.${p.slice(0, -1)}+.${s}`, 'payload is not base64url'],
    ['padding', `${h}=.${p}.${s}`, 'header is not base64url'],
    ['impossible base64 length (4n+1)', `${h}.${p}.AAAAA`, 'signature is not base64url'],
    ['header not JSON', `${b64('{alg')}.${p}.${s}`, 'header is not JSON'],
    ['payload a JSON array', `${h}.${json(['a'])}.${s}`, 'payload is not a JSON object'],
    ['payload JSON null', `${h}.${b64('null')}.${s}`, 'payload is not a JSON object'],
    ['kid not a string', `${json({ alg: 'ES256', kid: 7 })}.${p}.${s}`, 'header kid is not a string'],
  ])('%s', (_n, token, message) => {
    let err: unknown;
    try {
      decodeJws(token);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(JwsFormatError);
    expect((err as Error).message).toBe(`malformed JWS: ${message}`);
  });
});
