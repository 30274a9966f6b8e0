import { execFile, execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { certDirPaths, ensureCertDir, type CertDirPaths } from './pki';
import { loadTLSFiles } from './tlsFiles';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pki-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (p: string): string => readFileSync(p, 'utf8');
const mode = (p: string): number => statSync(p).mode & 0o777;
const hasCurl = ((): boolean => {
  try {
    execFileSync('curl', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

/** An https server using the cert dir's files the way the apiserver will. */
async function serve(p: CertDirPaths): Promise<{ port: number; close: () => Promise<void> }> {
  const tls = await loadTLSFiles({ clientCAFile: p.caCertFile, tlsCertFile: p.tlsCertFile, tlsKeyFile: p.tlsKeyFile });
  const server = https.createServer({ ca: tls.ca, cert: tls.cert, key: tls.key, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const s = req.socket as TLSSocket;
    const peer = s.getPeerCertificate();
    res.end(JSON.stringify({ authorized: s.authorized, error: s.authorizationError ? String(s.authorizationError) : null, cn: peer.subject?.CN ?? null, o: peer.subject?.O ?? null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((r) => server.close(() => r())) };
}

function get(port: number, host: string, opts: https.RequestOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    https
      .get({ host, port, path: '/', ...opts }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

describe('ensureCertDir', () => {
  test('generates CA, serving, admin and controller-manager pairs with the right modes and contents', async () => {
    const r = await ensureCertDir(dir);
    expect(r.generated).toEqual(['ca', 'apiserver', 'admin', 'controller-manager']);
    expect(r).toMatchObject(certDirPaths(dir));
    for (const k of [r.caKeyFile, r.tlsKeyFile, r.adminKeyFile, r.controllerManagerKeyFile]) {
      expect(mode(k)).toBe(0o600);
      expect(read(k)).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    }
    const ca = new X509Certificate(read(r.caCertFile));
    expect(ca.ca).toBe(true);
    expect(ca.subject).toBe('CN=svc-apiserver-ca');
    const yearsValid = (Date.parse(ca.validTo) - Date.now()) / (365 * 86400e3);
    expect(yearsValid).toBeGreaterThan(9.9);
    const serving = new X509Certificate(read(r.tlsCertFile));
    expect(serving.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(serving.checkIssued(ca)).toBe(true);
    expect(serving.checkHost('localhost')).toBe('localhost');
    expect(serving.checkIP('::1')).toBe('::1');
    const admin = new X509Certificate(read(r.adminCertFile));
    expect(admin.subject).toBe('O=system:masters\nCN=admin');
    const text = execFileSync('openssl', ['x509', '-noout', '-text', '-in', r.adminCertFile]).toString();
    expect(text).toMatch(/TLS Web Client Authentication/);
    expect(text).toMatch(/id-ecPublicKey[\s\S]*prime256v1/);
    const verify = execFileSync('openssl', ['verify', '-CAfile', r.caCertFile, '-purpose', 'sslserver', r.tlsCertFile]).toString();
    expect(verify).toMatch(/OK/);
    expect(execFileSync('openssl', ['verify', '-CAfile', r.caCertFile, '-purpose', 'sslclient', r.adminCertFile]).toString()).toMatch(/OK/);
    // The controller manager authenticates as the user the bootstrap RBAC policy binds, with no groups.
    const cm = new X509Certificate(read(r.controllerManagerCertFile));
    expect(cm.subject).toBe('CN=system:svc-controller-manager');
    expect(cm.checkIssued(ca)).toBe(true);
    expect(path.basename(r.controllerManagerCertFile)).toBe('controller-manager.crt');
    expect(execFileSync('openssl', ['verify', '-CAfile', r.caCertFile, '-purpose', 'sslclient', r.controllerManagerCertFile]).toString()).toMatch(/OK/);
  });

  test('a cert dir made before the controller-manager pair existed gains it, nothing else changes', async () => {
    const first = await ensureCertDir(dir);
    const before = { ca: read(first.caCertFile), admin: read(first.adminCertFile) };
    unlinkSync(first.controllerManagerCertFile);
    unlinkSync(first.controllerManagerKeyFile);
    expect((await ensureCertDir(dir)).generated).toEqual(['controller-manager']);
    expect(read(first.caCertFile)).toBe(before.ca);
    expect(read(first.adminCertFile)).toBe(before.admin);
  });

  test('reuses what exists; re-issues only the leaf that is missing or no longer fits', async () => {
    const first = await ensureCertDir(dir);
    const before = { ca: read(first.caCertFile), tls: read(first.tlsCertFile), admin: read(first.adminCertFile) };
    expect((await ensureCertDir(dir)).generated).toEqual([]);
    expect(read(first.caCertFile)).toBe(before.ca);

    unlinkSync(first.adminKeyFile);
    expect((await ensureCertDir(dir)).generated).toEqual(['admin']);
    expect(read(first.tlsCertFile)).toBe(before.tls);

    const extra = await ensureCertDir(dir, { extraSANs: ['apiserver-1', '10.1.2.3'] });
    expect(extra.generated).toEqual(['apiserver']);
    expect(new X509Certificate(read(first.tlsCertFile)).subjectAltName).toBe('DNS:localhost, DNS:apiserver-1, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:10.1.2.3');
    expect((await ensureCertDir(dir, { extraSANs: ['apiserver-1', '10.1.2.3'] })).generated).toEqual([]);

    // close to expiry (less than a tenth of its life left) → re-issued
    const nearEnd = new Date(Date.now() + 340 * 86400e3);
    expect((await ensureCertDir(dir, { now: () => nearEnd })).generated).toEqual(['apiserver', 'admin', 'controller-manager']);
    expect(read(first.caCertFile)).toBe(before.ca);
  });

  test('a leaf from another CA is replaced', async () => {
    const other = mkdtempSync(path.join(tmpdir(), 'pki-other-'));
    try {
      const o = await ensureCertDir(other);
      await ensureCertDir(dir);
      writeFileSync(path.join(dir, 'admin.crt'), read(o.adminCertFile));
      writeFileSync(path.join(dir, 'admin.key'), read(o.adminKeyFile));
      expect((await ensureCertDir(dir)).generated).toEqual(['admin']);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test.each<[string, (p: CertDirPaths) => void, RegExp]>([
    ['only the CA key is left', (p) => unlinkSync(p.caCertFile), /holds only one of .*ca\.crt and .*ca\.key/],
    ['the CA certificate is garbage', (p) => writeFileSync(p.caCertFile, 'nope'), /ca\.crt: no PEM CERTIFICATE block found/],
    ['the CA key belongs to something else', (p) => writeFileSync(p.caKeyFile, read(p.adminKeyFile)), /ca\.key does not match .*ca\.crt/],
  ])('refuses to touch a broken CA: %s', async (_n, breakIt, msg) => {
    const p = await ensureCertDir(dir);
    breakIt(p);
    await expect(ensureCertDir(dir)).rejects.toThrow(msg);
  });

  test('concurrent callers end up with one consistent CA', async () => {
    const rs = await Promise.all([ensureCertDir(dir), ensureCertDir(dir), ensureCertDir(dir)]);
    expect(rs.map((r) => r.generated.length).sort()).toEqual([0, 0, 4]);
    const ca = new X509Certificate(read(rs[0].caCertFile));
    expect(new X509Certificate(read(rs[0].adminCertFile)).checkIssued(ca)).toBe(true);
    expect(existsSync(path.join(dir, '.lock'))).toBe(false);
  });
});

describe('TLS with the generated files', () => {
  test('node https accepts the admin client certificate and rejects a foreign one', async () => {
    const p = await ensureCertDir(dir);
    const srv = await serve(p);
    try {
      const ok = JSON.parse(await get(srv.port, 'localhost', { ca: read(p.caCertFile), cert: read(p.adminCertFile), key: read(p.adminKeyFile) }));
      expect(ok).toEqual({ authorized: true, error: null, cn: 'admin', o: 'system:masters' });
      const anon = JSON.parse(await get(srv.port, '127.0.0.1', { ca: read(p.caCertFile) }));
      expect(anon).toMatchObject({ authorized: false, cn: null });

      const other = mkdtempSync(path.join(tmpdir(), 'pki-other-'));
      try {
        const o = await ensureCertDir(other);
        const bad = JSON.parse(await get(srv.port, 'localhost', { ca: read(p.caCertFile), cert: read(o.adminCertFile), key: read(o.adminKeyFile) }));
        expect(bad).toMatchObject({ authorized: false, cn: 'admin' });
        expect(bad.error).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    } finally {
      await srv.close();
    }
  });

  (hasCurl ? test : test.skip)('curl --cacert --cert --key authenticates', async () => {
    const p = await ensureCertDir(dir);
    const srv = await serve(p);
    try {
      for (const host of ['localhost', '127.0.0.1']) {
        const out = await new Promise<string>((resolve, reject) =>
          execFile('curl', ['-sS', '--cacert', p.caCertFile, '--cert', p.adminCertFile, '--key', p.adminKeyFile, `https://${host}:${srv.port}/`], (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout))),
        );
        expect(JSON.parse(out)).toMatchObject({ authorized: true, cn: 'admin' });
      }
    } finally {
      await srv.close();
    }
  });
});

describe('RSA variant', () => {
  test('keyAlgorithm rsa-2048 adds key encipherment and still serves TLS', async () => {
    const p = await ensureCertDir(dir, { keyAlgorithm: 'rsa-2048' });
    const text = execFileSync('openssl', ['x509', '-noout', '-text', '-in', p.tlsCertFile]).toString();
    expect(text).toMatch(/rsaEncryption/);
    expect(text).toMatch(/Digital Signature, Key Encipherment/);
    const srv = await serve(p);
    try {
      expect(JSON.parse(await get(srv.port, 'localhost', { ca: read(p.caCertFile), cert: read(p.adminCertFile), key: read(p.adminKeyFile) }))).toMatchObject({ authorized: true, cn: 'admin' });
    } finally {
      await srv.close();
    }
  });
});

describe('loadTLSFiles', () => {
  test('returns buffers for the https server', async () => {
    const p = await ensureCertDir(dir);
    const t = await loadTLSFiles({ clientCAFile: p.caCertFile, tlsCertFile: p.tlsCertFile, tlsKeyFile: p.tlsKeyFile });
    expect(t.ca?.toString()).toBe(read(p.caCertFile));
    expect(t.notAfter.getTime()).toBeGreaterThan(Date.now());
    expect((await loadTLSFiles({ tlsCertFile: p.tlsCertFile, tlsKeyFile: p.tlsKeyFile })).ca).toBeUndefined();
  });

  test.each<[string, (p: CertDirPaths) => { clientCAFile?: string; tlsCertFile: string; tlsKeyFile: string }, RegExp]>([
    ['missing cert file', (p) => ({ tlsCertFile: p.tlsCertFile + '.x', tlsKeyFile: p.tlsKeyFile }), /^--tls-cert-file ".*apiserver\.crt\.x": cannot read: ENOENT/],
    ['cert file is a key', (p) => ({ tlsCertFile: p.tlsKeyFile, tlsKeyFile: p.tlsKeyFile }), /^--tls-cert-file ".*apiserver\.key": no PEM CERTIFICATE block found/],
    ['key file is a cert', (p) => ({ tlsCertFile: p.tlsCertFile, tlsKeyFile: p.tlsCertFile }), /^--tls-private-key-file ".*apiserver\.crt": cannot parse private key/],
    ['key does not match', (p) => ({ tlsCertFile: p.tlsCertFile, tlsKeyFile: p.adminKeyFile }), /^--tls-private-key-file ".*admin\.key" does not match the certificate in --tls-cert-file/],
    ['client CA is garbage', (p) => ({ clientCAFile: p.caKeyFile, tlsCertFile: p.tlsCertFile, tlsKeyFile: p.tlsKeyFile }), /^--client-ca-file ".*ca\.key": no PEM CERTIFICATE block found/],
    ['client CA missing', (p) => ({ clientCAFile: '/nonexistent/ca.crt', tlsCertFile: p.tlsCertFile, tlsKeyFile: p.tlsKeyFile }), /^--client-ca-file "\/nonexistent\/ca\.crt": cannot read/],
  ])('%s → clear error', async (_n, opts, msg) => {
    const p = await ensureCertDir(dir);
    await expect(loadTLSFiles(opts(p))).rejects.toThrow(msg);
  });

  test('a malformed certificate block is reported with its position', async () => {
    const p = await ensureCertDir(dir);
    const bad = path.join(dir, 'bad.crt');
    writeFileSync(bad, read(p.tlsCertFile) + '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    await expect(loadTLSFiles({ tlsCertFile: bad, tlsKeyFile: p.tlsKeyFile })).rejects.toThrow(/certificate #2 cannot be parsed/);
  });
});
