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
