// CA material for the in-tree signers: parsing a cert/key pair once, loading it from the
// `--cluster-signing-*` files, and upstream's rule for default versus per-signer files.
import { createPrivateKey, X509Certificate as NodeX509Certificate, type KeyObject } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { pemBlocks } from '../certs';
import { x509 } from '../x509lib';

/** A CA certificate and its private key, both PEM. */
export interface SignerCAMaterial {
  certPem: string;
  keyPem: string;
}

/** Parsed and checked CA material; reusable across any number of signings. */
export interface SignerCA extends SignerCAMaterial {
  cert: x509.X509Certificate;
  key: KeyObject;
  notAfter: Date;
  /** Where it came from (file name or "inline"), for error messages. */
  source: string;
}

/**
 * Parses a pair: exactly one certificate, a private key matching it. Errors read like
 * upstream's (`error reading CA cert file "<f>": …`, `error reading CA key file "<f>": …`).
 */
export function parseSignerCA(material: SignerCAMaterial, certSource = 'inline', keySource = certSource): SignerCA {
  const certErr = (m: string): Error => new Error(`error reading CA cert file "${certSource}": ${m}`);
  const keyErr = (m: string): Error => new Error(`error reading CA key file "${keySource}": ${m}`);
  const blocks = pemBlocks(material.certPem, 'CERTIFICATE');
  if (blocks.length === 0) throw certErr('data does not contain any valid RSA or ECDSA certificates');
  if (blocks.length !== 1) throw certErr(`expected 1 certificate, found ${blocks.length}`);
  let cert: x509.X509Certificate;
  let nodeCert: NodeX509Certificate;
  try {
    nodeCert = new NodeX509Certificate(blocks[0]);
    cert = new x509.X509Certificate(blocks[0]);
  } catch (e) {
    throw certErr(`cannot parse certificate: ${(e as Error).message}`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(material.keyPem);
  } catch (e) {
    throw keyErr(`cannot parse private key: ${(e as Error).message}`);
  }
  if (!nodeCert.checkPrivateKey(key)) throw keyErr('tls: private key does not match public key');
  return { certPem: material.certPem, keyPem: material.keyPem, cert, key, notAfter: cert.notAfter, source: certSource };
}

/** Reads and parses a cert/key file pair. */
export async function loadSignerCA(certFile: string, keyFile: string): Promise<SignerCA> {
  if (!certFile || !keyFile) {
    throw new Error(`a CA certificate file and a CA key file are both required (got cert "${certFile}", key "${keyFile}")`);
  }
  const read = async (file: string, what: 'cert' | 'key'): Promise<string> => {
    try {
      return await fs.readFile(file, 'utf8');
    } catch (e) {
      throw new Error(`error reading CA ${what} file "${file}": ${(e as Error).message}`);
    }
  };
  const [certPem, keyPem] = await Promise.all([read(certFile, 'cert'), read(keyFile, 'key')]);
  return parseSignerCA({ certPem, keyPem }, certFile, keyFile);
}

export interface SignerCAFile {
  certFile?: string;
  keyFile?: string;
}

/** The signing flags: one default pair, or pairs per signer name. */
export interface SignerCAFlags extends SignerCAFile {
  perSigner?: Readonly<Record<string, SignerCAFile | undefined>>;
}

const isSet = (f: SignerCAFile | undefined): boolean => Boolean(f?.certFile || f?.keyFile);

/**
 * Which files each signer uses (upstream's startCertificateSigningRequestSigningController):
 * the default pair serves every signer; once any per-signer file is given, only signers with
 * their own files run, and giving both kinds is an error. An empty map means "no signer runs".
 */
export function resolveSignerCAFiles(flags: SignerCAFlags, signerNames: readonly string[]): Map<string, Required<SignerCAFile>> {
  const perSigner = flags.perSigner ?? {};
  const unknown = Object.keys(perSigner).filter((n) => isSet(perSigner[n]) && !signerNames.includes(n));
  if (unknown.length) throw new Error(`CA files given for unknown signers: ${unknown.join(', ')}`);
  const anySpecific = signerNames.some((n) => isSet(perSigner[n]));
  const defaultComplete = Boolean(flags.certFile && flags.keyFile);
  if (defaultComplete && anySpecific) throw new Error('cannot specify default and per controller certs at the same time');
  const out = new Map<string, Required<SignerCAFile>>();
  for (const name of signerNames) {
    const files = anySpecific ? perSigner[name] : defaultComplete ? flags : undefined;
    if (isSet(files)) out.set(name, { certFile: files?.certFile ?? '', keyFile: files?.keyFile ?? '' });
  }
  return out;
}

/** Resolves the flags and loads each distinct pair once. */
export async function loadSignerCAs(flags: SignerCAFlags, signerNames: readonly string[]): Promise<Map<string, SignerCA>> {
  const files = resolveSignerCAFiles(flags, signerNames);
  const loaded = new Map<string, Promise<SignerCA>>();
  const out = new Map<string, SignerCA>();
  for (const [name, f] of files) {
    const id = JSON.stringify([f.certFile, f.keyFile]);
    let ca = loaded.get(id);
    if (!ca) loaded.set(id, (ca = loadSignerCA(f.certFile, f.keyFile)));
    try {
      out.set(name, await ca);
    } catch (e) {
      throw new Error(`signer ${name}: ${(e as Error).message}`);
    }
  }
  return out;
}
