// Test material made with the openssl binary: PKCS#10 requests of each key type, certificates,
// and helpers to damage them. Results are cached per process (RSA key generation is slow).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type KeyKind = 'rsa' | 'ec256' | 'ec384' | 'ed25519';

const newKeyArgs: Record<KeyKind, string[]> = {
  rsa: ['-newkey', 'rsa:2048'],
  ec256: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'],
  ec384: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'],
  ed25519: ['-newkey', 'ed25519'],
};

function inTempDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'csr-fixtures-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

const requests = new Map<string, string>();

/** A PEM "CERTIFICATE REQUEST" signed by a fresh key of `kind`. */
export function makeRequestPem(kind: KeyKind, extraArgs: string[] = []): string {
  const cacheKey = `${kind} ${extraArgs.join(' ')}`;
  const cached = requests.get(cacheKey);
  if (cached) return cached;
  const pem = inTempDir((dir) => {
    openssl(['req', '-new', ...newKeyArgs[kind], '-nodes', '-keyout', 'key.pem', '-subj', '/CN=system:node:n1/O=system:nodes', '-out', 'req.pem', ...extraArgs], dir);
    return readFileSync(join(dir, 'req.pem'), 'utf8');
  });
  requests.set(cacheKey, pem);
  return pem;
}

let certificate: string | undefined;

/** A self-signed PEM "CERTIFICATE". */
export function makeCertificatePem(): string {
  certificate ??= inTempDir((dir) => {
    openssl(['req', '-x509', ...newKeyArgs.ec256, '-nodes', '-keyout', 'key.pem', '-subj', '/CN=test', '-days', '1', '-out', 'cert.pem'], dir);
    return readFileSync(join(dir, 'cert.pem'), 'utf8');
  });
  return certificate;
}

/** Runs `openssl <args>` on `input` (written to in.pem) and returns out.pem. */
export function opensslTransform(input: string, args: string[]): string {
  return inTempDir((dir) => {
    writeFileSync(join(dir, 'in.pem'), input);
    openssl([...args, '-in', 'in.pem', '-out', 'out.pem'], dir);
    return readFileSync(join(dir, 'out.pem'), 'utf8');
  });
}

/** The DER inside the first PEM block of `pem`. */
export function pemToDer(pem: string): Buffer {
  const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return Buffer.from(body, 'base64');
}

export function derToPem(der: Buffer, type: string): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.join('\n')}\n-----END ${type}-----\n`;
}

/** The same request with the last signature byte flipped. */
export function breakSignature(pem: string): string {
  const der = pemToDer(pem);
  der[der.length - 1] ^= 0x01;
  return derToPem(der, 'CERTIFICATE REQUEST');
}

/** JSON form of a bytes field: base64 of the text. */
export function b64(text: string): string {
  return Buffer.from(text).toString('base64');
}
