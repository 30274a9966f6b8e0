import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { PeerCertificate } from 'node:tls';
import { isApiError } from '../machinery/errors';
import { unionAuthenticator } from './authenticator';
import { authenticateClientCertificate, credentialIdKey, x509Authenticator } from './x509';

const raw = Buffer.from('certificate-der');
const fp = `X509SHA256=${createHash('sha256').update(raw).digest('hex')}`;
const peer = (subject: Record<string, string | string[]>, more: Partial<PeerCertificate> = {}): PeerCertificate =>
  ({ subject, raw, ...more }) as unknown as PeerCertificate;

describe('authenticateClientCertificate', () => {
  test.each<[string, Parameters<typeof authenticateClientCertificate>, unknown]>([
    ['no certificate (empty object)', [{}, false, 'UNABLE_TO_GET_ISSUER_CERT'], null],
    ['no certificate (null)', [null, false], null],
    ['CN and one O', [peer({ CN: 'admin', O: 'system:masters' }), true], { name: 'admin', groups: ['system:masters', 'system:authenticated'], extra: { [credentialIdKey]: [fp] } }],
    ['several O in order', [peer({ CN: 'system:node:n1', O: ['system:nodes', 'b', 'a'] }), true], { name: 'system:node:n1', groups: ['system:nodes', 'b', 'a', 'system:authenticated'], extra: { [credentialIdKey]: [fp] } }],
    ['no O', [peer({ CN: 'alice' }), true], { name: 'alice', groups: ['system:authenticated'], extra: { [credentialIdKey]: [fp] } }],
    ['already in system:authenticated', [peer({ CN: 'bob', O: 'system:authenticated' }), true], { name: 'bob', groups: ['system:authenticated'], extra: { [credentialIdKey]: [fp] } }],
    ['empty CN does not authenticate', [peer({ O: 'g' }), true], null],
    ['client auth EKU', [peer({ CN: 'c' }, { ext_key_usage: ['1.3.6.1.5.5.7.3.2'] }), true], { name: 'c', groups: ['system:authenticated'], extra: { [credentialIdKey]: [fp] } }],
    ['any EKU', [peer({ CN: 'c' }, { ext_key_usage: ['2.5.29.37.0'] }), true], { name: 'c', groups: ['system:authenticated'], extra: { [credentialIdKey]: [fp] } }],
  ])('%s', (_n, args, want) => {
    expect(authenticateClientCertificate(...args)).toEqual(want);
  });

  test.each<[string, Parameters<typeof authenticateClientCertificate>, string]>([
    ['failed verification (string code)', [peer({ CN: 'x' }), false, 'CERT_HAS_EXPIRED'], 'x509: CERT_HAS_EXPIRED'],
    ['failed verification (Error)', [peer({ CN: 'x' }), false, new Error('unable to verify the first certificate')], 'x509: unable to verify the first certificate'],
    ['failed verification, no reason', [peer({ CN: 'x' }), false], 'x509: certificate not verified'],
    ['server-only EKU', [peer({ CN: 'x' }, { ext_key_usage: ['1.3.6.1.5.5.7.3.1'] }), true], 'x509: certificate specifies an incompatible key usage'],
  ])('401 when %s', (_n, args, cause) => {
    let err: unknown;
    try {
      authenticateClientCertificate(...args);
    } catch (e) {
      err = e;
    }
    expect(isApiError(err)).toBe(true);
    if (!isApiError(err)) return;
    expect(err.status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    expect(JSON.stringify(err.status)).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}');
    expect(err.cause).toBe(cause);
  });
});

describe('x509Authenticator on a fake socket', () => {
  test('parses once per connection, disables renegotiation, hands out copies', async () => {
    let calls = 0;
    let renegOff = 0;
    const socket = {
      authorized: true,
      getPeerCertificate: () => {
        calls++;
        return peer({ CN: 'a', O: 'g' });
      },
      disableRenegotiation: () => {
        renegOff++;
      },
    };
    const a = x509Authenticator();
    const u1 = await a.authenticate({ socket, headers: {} });
    u1?.groups.push('mutated');
    const u2 = await a.authenticate({ socket, headers: {} });
    expect(u2).toEqual({ name: 'a', groups: ['g', 'system:authenticated'], extra: { [credentialIdKey]: [fp] } });
    expect([calls, renegOff]).toEqual([1, 1]);
  });

  test.each<[string, object, unknown]>([
    ['plain (non-TLS) socket', {}, null],
    ['TLS without a certificate', { authorized: false, authorizationError: 'UNABLE_TO_GET_ISSUER_CERT', getPeerCertificate: () => ({}) }, null],
  ])('%s → null', async (_n, socket, want) => {
    expect(await x509Authenticator().authenticate({ socket, headers: {} })).toEqual(want);
  });

  test('a rejected certificate stays rejected on the same connection', async () => {
    const socket = { authorized: false, authorizationError: new Error('certificate has expired'), getPeerCertificate: () => peer({ CN: 'a' }) };
    const a = x509Authenticator();
    for (let i = 0; i < 2; i++) await expect(a.authenticate({ socket, headers: {} })).rejects.toMatchObject({ code: 401, cause: 'x509: certificate has expired' });
  });
});

describe('x509Authenticator over real TLS (certificates made with the openssl CLI)', () => {
  let dir: string;
  let server: https.Server;
  let port: number;
  const f = (n: string): string => path.join(dir, n);
  const ossl = (...args: string[]): string => execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

  function client(name: string, subject: string, opts: { ca?: string; days?: string; ext?: string } = {}): void {
    ossl('req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', f(`${name}.key`), '-out', f(`${name}.csr`), '-subj', subject);
    const extArgs: string[] = [];
    if (opts.ext) {
      writeFileSync(f(`${name}.ext`), opts.ext);
      extArgs.push('-extfile', f(`${name}.ext`));
    }
    const ca = opts.ca ?? 'ca';
    ossl('x509', '-req', '-in', f(`${name}.csr`), '-CA', f(`${ca}.crt`), '-CAkey', f(`${ca}.key`), '-days', opts.days ?? '30', '-out', f(`${name}.crt`), ...extArgs);
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'x509auth-'));
    for (const ca of ['ca', 'other']) {
      ossl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', f(`${ca}.key`), '-out', f(`${ca}.crt`), '-subj', `/CN=${ca}`, '-days', '30');
    }
    client('server', '/CN=localhost', { ext: 'subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n' });
    client('alice', '/O=g1/O=g2/CN=alice', { ext: 'extendedKeyUsage=clientAuth\n' });
    client('expired', '/CN=old', { days: '-1' });
    client('foreign', '/CN=mallory', { ca: 'other' });
    client('serveronly', '/CN=srv', { ext: 'extendedKeyUsage=serverAuth\n' });
    client('nocn', '/O=g1');
    const authn = unionAuthenticator([x509Authenticator()]);
    server = https.createServer(
      { ca: readFileSync(f('ca.crt')), cert: readFileSync(f('server.crt')), key: readFileSync(f('server.key')), requestCert: true, rejectUnauthorized: false },
      (req, res) => {
        authn.authenticate(req).then(
          (user) => res.end(JSON.stringify({ user })),
          (e: unknown) => res.end(JSON.stringify({ code: isApiError(e) ? e.code : 0, cause: (e as Error).cause })),
        );
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  function call(name?: string): Promise<Record<string, unknown>> {
    const creds = name ? { cert: readFileSync(f(`${name}.crt`)), key: readFileSync(f(`${name}.key`)) } : {};
    return new Promise((resolve, reject) => {
      https
        .get({ host: 'localhost', port, path: '/', ca: readFileSync(f('ca.crt')), agent: false, ...creds }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve(JSON.parse(body) as Record<string, unknown>));
        })
        .on('error', reject);
    });
  }

  test.each<[string, string | undefined, (dirFp: (n: string) => string) => unknown]>([
    ['valid client certificate', 'alice', (fpOf) => ({ user: { name: 'alice', groups: ['g1', 'g2', 'system:authenticated'], extra: { [credentialIdKey]: [fpOf('alice')] } } })],
    ['no certificate → anonymous', undefined, () => ({ user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } })],
    ['empty CN → anonymous', 'nocn', () => ({ user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } })],
    ['expired → 401', 'expired', () => ({ code: 401, cause: 'x509: CERT_HAS_EXPIRED' })],
    ['signed by another CA → 401', 'foreign', () => ({ code: 401, cause: 'x509: UNABLE_TO_VERIFY_LEAF_SIGNATURE' })],
    ['server-auth-only certificate → 401', 'serveronly', () => ({ code: 401, cause: 'x509: INVALID_PURPOSE' })],
  ])('%s', async (_n, name, want) => {
    const fpOf = (n: string): string => `X509SHA256=${createHash('sha256').update(new X509Certificate(readFileSync(f(`${n}.crt`))).raw).digest('hex')}`;
    expect(await call(name)).toEqual(want(fpOf));
  });
});
