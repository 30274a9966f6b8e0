// Loads the serving TLS material named by flags (--client-ca-file, --tls-cert-file,
// --tls-private-key-file) and checks it before the server starts, so a bad file fails start-up
// with a message naming the file instead of failing every handshake later.
import { promises as fs } from 'node:fs';
import { parseCertificates } from './certs';
import { parsePrivateKey } from './keys';

export interface TLSFileOptions {
  /** CA bundle that client certificates must chain to; omit to disable x509 client auth. */
  clientCAFile?: string;
  tlsCertFile: string;
  tlsKeyFile: string;
}

/** Ready for `https.createServer({ ...loaded, requestCert: true, rejectUnauthorized: false })`. */
export interface LoadedTLSFiles {
  /** PEM bundle of client CAs (undefined when no clientCAFile was given). */
  ca?: Buffer;
  /** Serving certificate chain, leaf first. */
  cert: Buffer;
  key: Buffer;
  /** Serving leaf's NotAfter, for logging and expiry warnings. */
  notAfter: Date;
}

async function read(file: string, what: string): Promise<Buffer> {
  try {
    return await fs.readFile(file);
  } catch (e) {
    throw new Error(`${what} ${JSON.stringify(file)}: cannot read: ${(e as Error).message}`);
  }
}

export async function loadTLSFiles(opts: TLSFileOptions): Promise<LoadedTLSFiles> {
  const certWhat = `--tls-cert-file ${JSON.stringify(opts.tlsCertFile)}`;
  const keyWhat = `--tls-private-key-file ${JSON.stringify(opts.tlsKeyFile)}`;
  const cert = await read(opts.tlsCertFile, '--tls-cert-file');
  const key = await read(opts.tlsKeyFile, '--tls-private-key-file');
  const chain = parseCertificates(cert, certWhat);
  const privateKey = parsePrivateKey(key, keyWhat);
  if (!chain[0].node.checkPrivateKey(privateKey)) {
    throw new Error(`${keyWhat} does not match the certificate in ${certWhat}`);
  }
  let ca: Buffer | undefined;
  if (opts.clientCAFile !== undefined) {
    ca = await read(opts.clientCAFile, '--client-ca-file');
    parseCertificates(ca, `--client-ca-file ${JSON.stringify(opts.clientCAFile)}`);
  }
  return { ca, cert, key, notAfter: chain[0].cert.notAfter };
}
