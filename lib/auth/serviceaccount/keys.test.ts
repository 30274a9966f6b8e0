import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { keyIdFromPublicKey, signJws, verifyJws, decodeJws } from './jwt';
import {
  ensureServiceAccountKey,
  loadServiceAccountKeyFiles,
  loadServiceAccountSigningKey,
  parsePublicKeysPem,
  parseSigningKeyPem,
} from './keys';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const p256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
const pem = (k: KeyObject, type: 'pkcs1' | 'pkcs8' | 'sec1' | 'spki'): string => k.export({ type, format: 'pem' } as never).toString();

const dir = mkdtempSync(path.join(tmpdir(), 'sa-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string): string => {
  const f = path.join(dir, name);
  writeFileSync(f, content);
  return f;
};

/** A self-signed certificate for key, made by openssl (node cannot write certificates). */
function certificateFor(key: KeyObject, name: string): string {
  const keyFile = file(`${name}.key`, pem(key, 'pkcs8'));
  return execFileSync('openssl', ['req', '-x509', '-new', '-key', keyFile, '-subj', `/CN=${name}`, '-days', '1'], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

describe('parsePublicKeysPem: each PEM kind', () => {
  test.each<[string, string, KeyObject]>([
    ['RSA PRIVATE KEY (PKCS#1)', pem(rsa.privateKey, 'pkcs1'), rsa.publicKey],
    ['PRIVATE KEY (PKCS#8, RSA)', pem(rsa.privateKey, 'pkcs8'), rsa.publicKey],
    ['EC PRIVATE KEY (SEC1)', pem(p256.privateKey, 'sec1'), p256.publicKey],
    ['PRIVATE KEY (PKCS#8, EC)', pem(p256.privateKey, 'pkcs8'), p256.publicKey],
    ['PUBLIC KEY (RSA)', pem(rsa.publicKey, 'spki'), rsa.publicKey],
    ['PUBLIC KEY (EC P-384)', pem(p384.publicKey, 'spki'), p384.publicKey],
    ['RSA PUBLIC KEY (PKCS#1)', pem(rsa.publicKey, 'pkcs1'), rsa.publicKey],
    ['CERTIFICATE (RSA)', certificateFor(rsa.privateKey, 'rsa'), rsa.publicKey],
    ['CERTIFICATE (EC)', certificateFor(p256.privateKey, 'ec'), p256.publicKey],
  ])('%s', (_n, data, want) => {
    const keys = parsePublicKeysPem(data);
    expect(keys.map((k) => [k.type, keyIdFromPublicKey(k)])).toEqual([['public', keyIdFromPublicKey(want)]]);
  });

  test('a bundle keeps every key in order and skips blocks without one', () => {
    const ecParams = execFileSync('openssl', ['ecparam', '-name', 'prime256v1']).toString();
    const bundle = [
      'comment lines outside blocks are ignored',
      ecParams,
      pem(p256.publicKey, 'spki'),
      '-----BEGIN GARBAGE-----\nnot base64 at all!\n-----END GARBAGE-----\n',
      pem(generateKeyPairSync('ed25519').publicKey, 'spki'),
      pem(generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).publicKey, 'spki'),
      pem(rsa.privateKey, 'pkcs1'),
      pem(p384.privateKey, 'sec1'),
    ].join('\n');
    expect(parsePublicKeysPem(bundle).map(keyIdFromPublicKey)).toEqual([p256.publicKey, rsa.publicKey, p384.publicKey].map(keyIdFromPublicKey));
  });

  test('a legacy encrypted key (PEM headers) is skipped, not decrypted', () => {
    const encrypted = execFileSync('openssl', ['ec', '-aes128', '-passout', 'pass:secret'], { input: pem(p256.privateKey, 'sec1'), stdio: ['pipe', 'pipe', 'ignore'] }).toString();
    expect(encrypted).toContain('Proc-Type: 4,ENCRYPTED');
    expect(() => parsePublicKeysPem(encrypted)).toThrow('data does not contain any valid RSA or ECDSA public keys');
  });

  test.each<[string, string]>([
    ['empty', ''],
    ['no PEM', 'hello'],
    ['Ed25519 only', pem(generateKeyPairSync('ed25519').privateKey, 'pkcs8')],
  ])('no usable key: %s', (_n, data) => {
    expect(() => parsePublicKeysPem(data)).toThrow('data does not contain any valid RSA or ECDSA public keys');
  });
});

describe('parseSigningKeyPem', () => {
  test.each<[string, string, string, KeyObject]>([
    ['EC PRIVATE KEY after EC PARAMETERS (as openssl ecparam -genkey writes)', execFileSync('openssl', ['ecparam', '-name', 'prime256v1']).toString() + pem(p256.privateKey, 'sec1'), 'ES256', p256.publicKey],
    ['RSA PRIVATE KEY', pem(rsa.privateKey, 'pkcs1'), 'RS256', rsa.publicKey],
    ['PRIVATE KEY (P-384)', pem(p384.privateKey, 'pkcs8'), 'ES384', p384.publicKey],
    ['PRIVATE KEY (P-256) after a public key', pem(rsa.publicKey, 'spki') + pem(p256.privateKey, 'pkcs8'), 'ES256', p256.publicKey],
  ])('%s', (_n, data, alg, pub) => {
    const key = parseSigningKeyPem(data);
    expect(key.alg).toBe(alg);
    expect(key.key.type).toBe('private');
    expect(key.kid).toBe(keyIdFromPublicKey(pub));
    expect(verifyJws(decodeJws(signJws({ a: 1 }, key)), [createPublicKey(key.key)])).toEqual({ a: 1 });
  });

  test.each<[string, string, string]>([
    ['public key only', pem(p256.publicKey, 'spki'), 'data does not contain a valid RSA or ECDSA private key'],
    ['certificate only', certificateFor(p256.privateKey, 'only'), 'data does not contain a valid RSA or ECDSA private key'],
    ['RSA key under an EC label', pem(rsa.privateKey, 'pkcs1').replace(/RSA PRIVATE KEY/g, 'EC PRIVATE KEY'), 'data does not contain a valid RSA or ECDSA private key'],
    ['Ed25519', pem(generateKeyPairSync('ed25519').privateKey, 'pkcs8'), 'unsupported key type ed25519, must be RSA or ECDSA'],
    ['secp256k1', pem(generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey, 'pkcs8'), 'unknown private key curve, must be 256, 384, or 521'],
  ])('refuses %s', (_n, data, message) => {
    expect(() => parseSigningKeyPem(data)).toThrow(message);
  });
});

describe('loading files', () => {
  test('key files are read in order and concatenated', async () => {
    const a = file('a.pem', pem(rsa.publicKey, 'spki'));
    const b = file('b.pem', pem(p256.privateKey, 'sec1') + pem(p384.publicKey, 'spki'));
    const keys = await loadServiceAccountKeyFiles([a, b]);
    expect(keys.map(keyIdFromPublicKey)).toEqual([rsa.publicKey, p256.publicKey, p384.publicKey].map(keyIdFromPublicKey));
  });

  test('errors name the file and never carry key material', async () => {
    const body = pem(p256.privateKey, 'sec1').split('\n')[1];
    const broken = file('broken.key', `-----BEGIN EC PRIVATE KEY-----\n${body}\n-----END EC PRIVATE KEY-----\n`);
    const errs = await Promise.all([
      loadServiceAccountKeyFiles([broken]).catch((e: Error) => e.message),
      loadServiceAccountSigningKey(broken).catch((e: Error) => e.message),
      loadServiceAccountSigningKey(path.join(dir, 'missing.key')).catch((e: Error) => e.message),
    ]);
    expect(errs).toEqual([
      `error reading public key file ${broken}: data does not contain any valid RSA or ECDSA public keys`,
      `error reading private key file ${broken}: data does not contain a valid RSA or ECDSA private key`,
      `error reading private key file ${path.join(dir, 'missing.key')}: ENOENT: no such file or directory, open '${path.join(dir, 'missing.key')}'`,
    ]);
    for (const m of errs) expect(m).not.toContain(body.slice(0, 16));
  });
});

describe('ensureServiceAccountKey', () => {
  const certDir = (): string => mkdtempSync(path.join(dir, 'pki-'));

  test('generates an ECDSA P-256 PKCS#8 key (0600) and its public key once', async () => {
    const d = path.join(certDir(), 'nested');
    const first = await ensureServiceAccountKey(d);
    expect(first).toEqual({ signingKeyFile: path.join(d, 'sa.key'), publicKeyFile: path.join(d, 'sa.pub'), generated: true });
    const keyPem = readFileSync(first.signingKeyFile, 'utf8');
    expect(keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(statSync(first.signingKeyFile).mode & 0o777).toBe(0o600);
    const signing = parseSigningKeyPem(keyPem);
    expect(signing.alg).toBe('ES256');
    expect(parsePublicKeysPem(readFileSync(first.publicKeyFile)).map(keyIdFromPublicKey)).toEqual([signing.kid]);

    const again = await ensureServiceAccountKey(d);
    expect(again.generated).toBe(false);
    expect(readFileSync(again.signingKeyFile, 'utf8')).toBe(keyPem);
  });

  test('a missing sa.pub is rewritten from the existing key; an existing one is left alone', async () => {
    const d = certDir();
    const { signingKeyFile, publicKeyFile } = await ensureServiceAccountKey(d);
    rmSync(publicKeyFile);
    await ensureServiceAccountKey(d);
    expect(parsePublicKeysPem(readFileSync(publicKeyFile)).map(keyIdFromPublicKey)).toEqual([parseSigningKeyPem(readFileSync(signingKeyFile)).kid]);
    const rotation = pem(rsa.publicKey, 'spki') + readFileSync(publicKeyFile, 'utf8');
    writeFileSync(publicKeyFile, rotation);
    await ensureServiceAccountKey(d);
    expect(readFileSync(publicKeyFile, 'utf8')).toBe(rotation);
  });

  test('an existing RSA signing key is used, not replaced', async () => {
    const d = certDir();
    writeFileSync(path.join(d, 'sa.key'), pem(rsa.privateKey, 'pkcs1'));
    expect((await ensureServiceAccountKey(d)).generated).toBe(false);
    expect(parsePublicKeysPem(readFileSync(path.join(d, 'sa.pub'))).map(keyIdFromPublicKey)).toEqual([keyIdFromPublicKey(rsa.publicKey)]);
  });

  test('a corrupt sa.key is an error and stays untouched', async () => {
    const d = certDir();
    writeFileSync(path.join(d, 'sa.key'), 'garbage');
    chmodSync(path.join(d, 'sa.key'), 0o600);
    await expect(ensureServiceAccountKey(d)).rejects.toThrow(`error reading private key file ${path.join(d, 'sa.key')}: data does not contain a valid RSA or ECDSA private key`);
    expect(readFileSync(path.join(d, 'sa.key'), 'utf8')).toBe('garbage');
  });

  test('concurrent callers end up with one key, generated by exactly one of them', async () => {
    const d = certDir();
    const results = await Promise.all(Array.from({ length: 4 }, () => ensureServiceAccountKey(d)));
    expect(results.filter((r) => r.generated)).toHaveLength(1);
    const kid = parseSigningKeyPem(readFileSync(path.join(d, 'sa.key'))).kid;
    expect(parsePublicKeysPem(readFileSync(path.join(d, 'sa.pub'))).map(keyIdFromPublicKey)).toEqual([kid]);
  });
});
