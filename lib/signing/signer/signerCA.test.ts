import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signerNames } from '../../api';
import { loadSignerCA, loadSignerCAs, parseSignerCA, resolveSignerCAFiles } from './signerCA';
import { makeCA, type TestCA } from './testing/requests';

const start = new Date('2026-01-01T00:00:00Z');
const end = new Date('2030-01-01T00:00:00Z');
const all = Object.values(signerNames);

let dir: string;
let ca: TestCA;
let other: TestCA;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'signer-ca-'));
  ca = await makeCA(start, end);
  other = await makeCA(start, end, 'rsa-2048', 'other-ca');
  writeFileSync(join(dir, 'ca.crt'), ca.certPem);
  writeFileSync(join(dir, 'ca.key'), ca.keyPem);
  writeFileSync(join(dir, 'other.crt'), other.certPem);
  writeFileSync(join(dir, 'other.key'), other.keyPem);
  writeFileSync(join(dir, 'two.crt'), ca.certPem + other.certPem);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const f = (name: string): string => join(dir, name);

describe('parseSignerCA', () => {
  test('parses cert, key and NotAfter', () => {
    const parsed = parseSignerCA(ca);
    expect(parsed.notAfter.toISOString()).toBe(end.toISOString());
    expect(parsed.key.asymmetricKeyType).toBe('ec');
    expect(parsed.cert.subject).toBe('CN=signer-ca');
  });
  test.each<[string, () => TestCA, string]>([
    ['no certificate', () => ({ certPem: 'junk', keyPem: ca.keyPem }), 'error reading CA cert file "inline": data does not contain any valid RSA or ECDSA certificates'],
    ['two certificates', () => ({ certPem: ca.certPem + other.certPem, keyPem: ca.keyPem }), 'error reading CA cert file "inline": expected 1 certificate, found 2'],
    ['bad key', () => ({ certPem: ca.certPem, keyPem: 'junk' }), 'error reading CA key file "inline": cannot parse private key'],
    ['key of another CA', () => ({ certPem: ca.certPem, keyPem: other.keyPem }), 'error reading CA key file "inline": tls: private key does not match public key'],
  ])('rejects %s', (_n, material, msg) => {
    expect(() => parseSignerCA(material())).toThrow(msg);
  });
});

describe('loadSignerCA', () => {
  test('loads a pair from files', async () => {
    const loaded = await loadSignerCA(f('other.crt'), f('other.key'));
    expect(loaded.cert.subject).toBe('CN=other-ca');
    expect(loaded.source).toBe(f('other.crt'));
    expect(loaded.certPem).toBe(other.certPem);
  });
  test.each<[string, () => [string, string], string]>([
    ['missing cert file', () => [f('nope.crt'), f('ca.key')], 'error reading CA cert file'],
    ['missing key file', () => [f('ca.crt'), f('nope.key')], 'error reading CA key file'],
    ['mismatched pair', () => [f('ca.crt'), f('other.key')], 'tls: private key does not match public key'],
    ['bundle of two', () => [f('two.crt'), f('ca.key')], 'expected 1 certificate, found 2'],
    ['only a cert file', () => [f('ca.crt'), ''], 'a CA certificate file and a CA key file are both required'],
  ])('%s', async (_n, files, msg) => {
    const [c, k] = files();
    await expect(loadSignerCA(c, k)).rejects.toThrow(msg);
  });
  test('file errors name the file', async () => {
    await expect(loadSignerCA(f('nope.crt'), f('ca.key'))).rejects.toThrow(`error reading CA cert file "${f('nope.crt')}": ENOENT`);
  });
});

describe('resolveSignerCAFiles', () => {
  const pair = { certFile: 'a.crt', keyFile: 'a.key' };
  const pair2 = { certFile: 'b.crt', keyFile: 'b.key' };
  test.each<[string, Parameters<typeof resolveSignerCAFiles>[0], Record<string, { certFile: string; keyFile: string }>]>([
    ['nothing → no signer runs', {}, {}],
    ['default pair → every signer', pair, Object.fromEntries(all.map((n) => [n, pair]))],
    ['half a default pair → no signer runs', { certFile: 'a.crt' }, {}],
    ['per-signer only → just those', { perSigner: { [signerNames.svcletServing]: pair2 } }, { [signerNames.svcletServing]: pair2 }],
    ['per-signer half pair is kept (fails on load)', { perSigner: { [signerNames.apiserverClient]: { certFile: 'c.crt' } } }, { [signerNames.apiserverClient]: { certFile: 'c.crt', keyFile: '' } }],
    ['half default with per-signer → per-signer wins', { certFile: 'a.crt', perSigner: { [signerNames.svcletServing]: pair2 } }, { [signerNames.svcletServing]: pair2 }],
  ])('%s', (_n, flags, want) => {
    expect(Object.fromEntries(resolveSignerCAFiles(flags, all))).toEqual(want);
  });
  test.each<[string, Parameters<typeof resolveSignerCAFiles>[0], string]>([
    ['default and per-signer together', { ...pair, perSigner: { [signerNames.svcletServing]: pair2 } }, 'cannot specify default and per controller certs at the same time'],
    ['unknown signer', { perSigner: { 'svc.io/other': pair2 } }, 'CA files given for unknown signers: svc.io/other'],
  ])('rejects %s', (_n, flags, msg) => {
    expect(() => resolveSignerCAFiles(flags, all)).toThrow(msg);
  });
});

describe('loadSignerCAs', () => {
  test('a shared default pair is loaded once and used by every signer', async () => {
    const cas = await loadSignerCAs({ certFile: f('ca.crt'), keyFile: f('ca.key') }, all);
    expect([...cas.keys()].sort()).toEqual([...all].sort());
    const first = cas.get(signerNames.apiserverClient);
    for (const v of cas.values()) expect(v).toBe(first);
  });
  test('per-signer pairs', async () => {
    const cas = await loadSignerCAs({ perSigner: { [signerNames.svcletServing]: { certFile: f('other.crt'), keyFile: f('other.key') }, [signerNames.apiserverClient]: { certFile: f('ca.crt'), keyFile: f('ca.key') } } }, all);
    expect(cas.get(signerNames.svcletServing)?.cert.subject).toBe('CN=other-ca');
    expect(cas.get(signerNames.apiserverClient)?.cert.subject).toBe('CN=signer-ca');
    expect(cas.has(signerNames.apiserverClientSvclet)).toBe(false);
  });
  test('errors name the signer', async () => {
    await expect(loadSignerCAs({ perSigner: { [signerNames.svcletServing]: { certFile: f('ca.crt'), keyFile: f('other.key') } } }, all)).rejects.toThrow(
      `signer ${signerNames.svcletServing}: error reading CA key file "${f('other.key')}": tls: private key does not match public key`,
    );
  });
});
