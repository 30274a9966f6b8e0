// Certificate requests and certificates made by the openssl CLI, as a user would make them.
// Each call works in a temp directory of its own and removes it before returning: the keys
// come back as PEM text, nothing stays on disk.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type KeyKind = 'rsa' | 'ecdsa';

export interface MadeRequest {
  csrPem: string;
  keyPem: string;
}

/** Runs fn in a fresh temp directory and removes the directory afterwards, whatever fn does. */
function inTempDir<T>(prefix: string, fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function newKey(kind: KeyKind, keyPath: string): void {
  if (kind === 'rsa') execFileSync('openssl', ['genrsa', '-out', keyPath, '2048'], { stdio: 'ignore' });
  else execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', keyPath], { stdio: 'ignore' });
}

export function makeCsr(kind: KeyKind, subject: string): MadeRequest {
  return makeCsrWithExtensions(kind, subject, []);
}

/**
 * Signs a CSR with the cluster CA (as a signer would), returning the certificate PEM. A random
 * serial instead of -CAcreateserial, which would leave a .srl file beside the CA certificate.
 */
export function signWithCa(csrPem: string, caCert: string, caKey: string, days = 1): string {
  return inTempDir('svc-sign-', (dir) => {
    const csrPath = join(dir, 'csr.pem');
    writeFileSync(csrPath, csrPem);
    const ext = join(dir, 'ext.cnf');
    writeFileSync(ext, 'keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\nbasicConstraints=critical,CA:FALSE\n');
    const out = join(dir, 'cert.pem');
    const serial = `0x${randomBytes(16).toString('hex')}`;
    execFileSync('openssl', ['x509', '-req', '-in', csrPath, '-CA', caCert, '-CAkey', caKey, '-set_serial', serial, '-days', String(days), '-extfile', ext, '-out', out], { stdio: 'ignore' });
    return readFileSync(out, 'utf8');
  });
}

export const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** A CSR like makeCsr's with extra `openssl req -addext` values, e.g. 'subjectAltName=DNS:node1.example'. */
export function makeCsrWithExtensions(kind: KeyKind, subject: string, addext: readonly string[]): MadeRequest {
  return inTempDir('svc-csr-', (dir) => {
    const keyPath = join(dir, 'key.pem');
    const csrPath = join(dir, 'csr.pem');
    newKey(kind, keyPath);
    execFileSync('openssl', ['req', '-new', '-key', keyPath, '-subj', subject, ...addext.flatMap((e) => ['-addext', e]), '-out', csrPath], { stdio: 'ignore' });
    return { csrPem: readFileSync(csrPath, 'utf8'), keyPem: readFileSync(keyPath, 'utf8') };
  });
}

/** `openssl verify -CAfile <caFile>` of a certificate PEM: exit status 0 and its output. */
export function verifyWithCa(certPem: string, caFile: string): { ok: boolean; output: string } {
  return inTempDir('svc-verify-', (dir) => {
    const certPath = join(dir, 'cert.pem');
    writeFileSync(certPath, certPem);
    try {
      return { ok: true, output: execFileSync('openssl', ['verify', '-CAfile', caFile, certPath], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string };
      return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
    }
  });
}

/** `openssl x509 -noout -text` of a certificate PEM (extensions as openssl names them). */
export function certificateText(certPem: string): string {
  return execFileSync('openssl', ['x509', '-noout', '-text'], { input: certPem, encoding: 'utf8' });
}
