// Certificate requests and certificates made by the openssl CLI, as a user would make them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type KeyKind = 'rsa' | 'ecdsa';

export interface MadeRequest {
  csrPem: string;
  keyPem: string;
  keyPath: string;
  csrPath: string;
}

export function makeCsr(kind: KeyKind, subject: string): MadeRequest {
  const dir = mkdtempSync(join(tmpdir(), 'svc-csr-'));
  const keyPath = join(dir, 'key.pem');
  const csrPath = join(dir, 'csr.pem');
  if (kind === 'rsa') execFileSync('openssl', ['genrsa', '-out', keyPath, '2048'], { stdio: 'ignore' });
  else execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', keyPath], { stdio: 'ignore' });
  execFileSync('openssl', ['req', '-new', '-key', keyPath, '-subj', subject, '-out', csrPath], { stdio: 'ignore' });
  return { csrPem: readFileSync(csrPath, 'utf8'), keyPem: readFileSync(keyPath, 'utf8'), keyPath, csrPath };
}

/** Signs a CSR with the cluster CA (as a signer would), returning the certificate PEM. */
export function signWithCa(csrPath: string, caCert: string, caKey: string, days = 1): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sign-'));
  const ext = join(dir, 'ext.cnf');
  writeFileSync(ext, 'keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\nbasicConstraints=critical,CA:FALSE\n');
  const out = join(dir, 'cert.pem');
  execFileSync('openssl', ['x509', '-req', '-in', csrPath, '-CA', caCert, '-CAkey', caKey, '-CAcreateserial', '-days', String(days), '-extfile', ext, '-out', out], { stdio: 'ignore' });
  return readFileSync(out, 'utf8');
}

export const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** A CSR like makeCsr's with extra `openssl req -addext` values, e.g. 'subjectAltName=DNS:node1.example'. */
export function makeCsrWithExtensions(kind: KeyKind, subject: string, addext: readonly string[]): MadeRequest {
  const dir = mkdtempSync(join(tmpdir(), 'svc-csr-'));
  const keyPath = join(dir, 'key.pem');
  const csrPath = join(dir, 'csr.pem');
  if (kind === 'rsa') execFileSync('openssl', ['genrsa', '-out', keyPath, '2048'], { stdio: 'ignore' });
  else execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', keyPath], { stdio: 'ignore' });
  execFileSync('openssl', ['req', '-new', '-key', keyPath, '-subj', subject, ...addext.flatMap((e) => ['-addext', e]), '-out', csrPath], { stdio: 'ignore' });
  return { csrPem: readFileSync(csrPath, 'utf8'), keyPem: readFileSync(keyPath, 'utf8'), keyPath, csrPath };
}

/** `openssl verify -CAfile <caFile>` of a certificate PEM: exit status 0 and its output. */
export function verifyWithCa(certPem: string, caFile: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-verify-'));
  const certPath = join(dir, 'cert.pem');
  writeFileSync(certPath, certPem);
  try {
    return { ok: true, output: execFileSync('openssl', ['verify', '-CAfile', caFile, certPath], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/** `openssl x509 -noout -text` of a certificate PEM (extensions as openssl names them). */
export function certificateText(certPem: string): string {
  return execFileSync('openssl', ['x509', '-noout', '-text'], { input: certPem, encoding: 'utf8' });
}
