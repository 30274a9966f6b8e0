// Key material of ServiceAccount tokens: the verification keys of --service-account-key-file, the
// signing key of --service-account-signing-key-file (upstream client-go util/keyutil), and a
// generated default pair in the cert dir. Messages name files, never key bytes.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { signingKeyFrom, type SigningKey } from './jwt';

interface PemBlock {
  label: string;
  der: Buffer;
}

/**
 * The PEM blocks of data, in order. Blocks with RFC 1421 headers (legacy encrypted keys) and
 * blocks whose body is not base64 are left out: they can hold no usable key.
 */
function pemBlocks(data: string): PemBlock[] {
  const out: PemBlock[] = [];
  const re = /-----BEGIN ([^-\r\n]+)-----([\s\S]*?)-----END \1-----/g;
  for (let m = re.exec(data); m; m = re.exec(data)) {
    const body = m[2];
    if (body.includes(':')) continue;
    const b64 = body.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) continue;
    out.push({ label: m[1], der: Buffer.from(b64, 'base64') });
  }
  return out;
}

function attempt<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

const supportedCurves = new Set(['prime256v1', 'secp384r1', 'secp521r1']);

/** RSA, or ECDSA on a curve a JWS algorithm exists for. */
function usable(key: KeyObject | undefined): key is KeyObject {
  if (!key) return false;
  if (key.asymmetricKeyType === 'rsa') return true;
  return key.asymmetricKeyType === 'ec' && supportedCurves.has(key.asymmetricKeyDetails?.namedCurve ?? '');
}

/**
 * The public key inside one DER block, whatever the label says (as upstream, which tries each
 * parser in turn): PKCS#1/PKCS#8/SEC1 private keys yield their public half, SubjectPublicKeyInfo
 * and PKCS#1 RSA public keys are taken as they are, certificates give their subject key.
 */
function publicKeyOfDer(der: Buffer): KeyObject | undefined {
  const parsers: Array<() => KeyObject> = [
    () => createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs1' })),
    () => createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })),
    () => createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'sec1' })),
    () => createPublicKey({ key: der, format: 'der', type: 'spki' }),
    () => createPublicKey({ key: der, format: 'der', type: 'pkcs1' }),
    () => new X509Certificate(der).publicKey,
  ];
  for (const parse of parsers) {
    const key = attempt(parse);
    if (usable(key)) return key;
  }
  return undefined;
}

/**
 * The verification keys in a PEM bundle (upstream ParsePublicKeysPEM): every block that holds an
 * RSA or ECDSA key in any of the accepted forms; other blocks are skipped. Throws when none does.
 */
export function parsePublicKeysPem(data: string | Buffer): KeyObject[] {
  const keys = pemBlocks(data.toString()).flatMap((b) => publicKeyOfDer(b.der) ?? []);
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}

/** The keys of every --service-account-key-file, in order. */
export async function loadServiceAccountKeyFiles(files: readonly string[]): Promise<KeyObject[]> {
  const keys: KeyObject[] = [];
  for (const file of files) {
    try {
      keys.push(...parsePublicKeysPem(await fs.readFile(file)));
    } catch (e) {
      throw new Error(`error reading public key file ${file}: ${(e as Error).message}`);
    }
  }
  return keys;
}

// Each label's encoding, and the key type it must hold (Go parses each label with its own
// function; OpenSSL 3.5's decoder, in Node 24, reads a PKCS#1 RSA key under type 'sec1' too).
const privateKeyTypes: Record<string, { type: 'sec1' | 'pkcs1' | 'pkcs8'; keyType?: string }> = {
  'EC PRIVATE KEY': { type: 'sec1', keyType: 'ec' },
  'RSA PRIVATE KEY': { type: 'pkcs1', keyType: 'rsa' },
  'PRIVATE KEY': { type: 'pkcs8' },
};

/**
 * The signing key in PEM data (upstream ParsePrivateKeyPEM): the first block labelled EC PRIVATE
 * KEY, RSA PRIVATE KEY or PRIVATE KEY that parses; other blocks (EC PARAMETERS…) are skipped. The
 * key must be RSA or ECDSA P-256/P-384/P-521.
 */
export function parseSigningKeyPem(data: string | Buffer): SigningKey {
  for (const block of pemBlocks(data.toString())) {
    const expected = privateKeyTypes[block.label];
    if (!expected) continue;
    const key = attempt(() => createPrivateKey({ key: block.der, format: 'der', type: expected.type }));
    if (key && (!expected.keyType || key.asymmetricKeyType === expected.keyType)) return signingKeyFrom(key);
  }
  throw new Error('data does not contain a valid RSA or ECDSA private key');
}

/** The key of --service-account-signing-key-file. */
export async function loadServiceAccountSigningKey(file: string): Promise<SigningKey> {
  try {
    return parseSigningKeyPem(await fs.readFile(file));
  } catch (e) {
    throw new Error(`error reading private key file ${file}: ${(e as Error).message}`);
  }
}

export const serviceAccountKeyFileNames = { signingKey: 'sa.key', publicKey: 'sa.pub' } as const;

export interface EnsuredServiceAccountKey {
  signingKeyFile: string;
  publicKeyFile: string;
  /** This call created the signing key. */
  generated: boolean;
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
}

async function writeTemp(file: string, data: string, mode: number): Promise<string> {
  const tmp = tempNameFor(file);
  await fs.writeFile(tmp, data, { mode, flag: 'wx' });
  await fs.chmod(tmp, mode); // the create mode passes through the umask
  return tmp;
}

/**
 * Creates file with data unless it already exists; false when another process got there first.
 * Readers never see a partial file: the content is complete before link() makes it visible, and
 * link() refuses to replace an existing file, unlike rename().
 */
async function createExclusive(file: string, data: string, mode: number): Promise<boolean> {
  const tmp = await writeTemp(file, data, mode);
  try {
    await fs.link(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

async function replaceAtomic(file: string, data: string, mode: number): Promise<void> {
  const tmp = await writeTemp(file, data, mode);
  try {
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
}

/**
 * The default ServiceAccount key pair in certDir: `sa.key` (ECDSA P-256, PKCS#8, mode 0600) and
 * `sa.pub` (its SubjectPublicKeyInfo), generated once when absent and never replaced afterwards.
 * An existing sa.key that does not parse is an error, not a reason to overwrite it.
 */
export async function ensureServiceAccountKey(certDir: string): Promise<EnsuredServiceAccountKey> {
  await fs.mkdir(certDir, { recursive: true, mode: 0o700 });
  const signingKeyFile = path.join(certDir, serviceAccountKeyFileNames.signingKey);
  const publicKeyFile = path.join(certDir, serviceAccountKeyFileNames.publicKey);
  let generated = false;
  let pem = await readIfExists(signingKeyFile);
  if (pem === undefined) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const fresh = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    generated = await createExclusive(signingKeyFile, fresh, 0o600);
    pem = generated ? fresh : await fs.readFile(signingKeyFile, 'utf8');
  }
  let signing: SigningKey;
  try {
    signing = parseSigningKeyPem(pem);
  } catch (e) {
    throw new Error(`error reading private key file ${signingKeyFile}: ${(e as Error).message}`);
  }
  if (generated || (await readIfExists(publicKeyFile)) === undefined) {
    await replaceAtomic(publicKeyFile, createPublicKey(signing.key).export({ type: 'spki', format: 'pem' }).toString(), 0o644);
  }
  return { signingKeyFile, publicKeyFile, generated };
}
