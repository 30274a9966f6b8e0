import { X509Certificate } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { certificateFacts, ekuOid, parseCertificates } from '../../lib/signing';
import { parseFlags } from '../flagSet';
import { ensureEtcdPki, etcdMemberFile } from './etcdPki';
import { writeClusterPki } from './main';
import { certsFlags, toCertsOptions } from './options';

const tmp = (): Promise<string> => fs.mkdtemp(path.join(os.tmpdir(), 'svc-etcd-pki-'));
const read = (dir: string, f: string): Promise<string> => fs.readFile(path.join(dir, f), 'utf8');
const options = (argv: string[]) => toCertsOptions(parseFlags(argv, certsFlags).values);

let dir: string;
beforeAll(async () => {
  dir = await tmp();
  await writeClusterPki(options([`--cert-dir=${dir}`, '--etcd-members=etcd-1=10.213.0.10,etcd-2=etcd-2.example', '--etcd-server-cert-extra-sans=etcd.example,10.9.9.9', '--etcd-peer-cert-extra-sans=10.8.8.8']));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

const both = [ekuOid.serverAuth, ekuOid.clientAuth];
const client = [ekuOid.clientAuth];
const loopbacks = ['127.0.0.1', '::1'];

// kubeadm's certificate list (cmd/kubeadm/app/phases/certs/certlist.go): CN, no O, usages, SANs
// (getAltNames: DNS [node name, localhost], IPs [advertise address, 127.0.0.1, ::1] + extra SANs).
test.each([
  ['etcd/ca.crt', { commonName: 'etcd-ca', isCA: true, extKeyUsages: [], dnsNames: [], ipAddresses: [] }],
  [etcdMemberFile('etcd-1', 'server', 'crt'), { commonName: 'etcd-1', isCA: false, extKeyUsages: both, dnsNames: ['etcd-1', 'localhost', 'etcd.example'], ipAddresses: ['10.213.0.10', ...loopbacks, '10.9.9.9'] }],
  [etcdMemberFile('etcd-1', 'peer', 'crt'), { commonName: 'etcd-1', isCA: false, extKeyUsages: both, dnsNames: ['etcd-1', 'localhost'], ipAddresses: ['10.213.0.10', ...loopbacks, '10.8.8.8'] }],
  [etcdMemberFile('etcd-2', 'server', 'crt'), { commonName: 'etcd-2', isCA: false, extKeyUsages: both, dnsNames: ['etcd-2', 'localhost', 'etcd-2.example', 'etcd.example'], ipAddresses: [...loopbacks, '10.9.9.9'] }],
  [etcdMemberFile('etcd-2', 'peer', 'crt'), { commonName: 'etcd-2', isCA: false, extKeyUsages: both, dnsNames: ['etcd-2', 'localhost', 'etcd-2.example'], ipAddresses: [...loopbacks, '10.8.8.8'] }],
  ['etcd/healthcheck-client.crt', { commonName: 'svc-etcd-healthcheck-client', isCA: false, extKeyUsages: client, dnsNames: [], ipAddresses: [] }],
  ['apiserver-etcd-client.crt', { commonName: 'svc-apiserver-etcd-client', isCA: false, extKeyUsages: client, dnsNames: [], ipAddresses: [] }],
])('%s: subject, usages and SANs as kubeadm writes them', async (file, want) => {
  const f = certificateFacts(parseCertificates(await read(dir, file))[0].cert);
  expect({ commonName: f.commonName, isCA: f.isCA, extKeyUsages: [...f.extKeyUsages], dnsNames: f.dnsNames, ipAddresses: f.ipAddresses }).toEqual(want);
  expect(f.organizations).toEqual([]);
});

test.each(['etcd-1/server', 'etcd-1/peer', 'etcd-2/server', 'etcd-2/peer', 'healthcheck-client'].map((n) => `etcd/${n}`).concat(['apiserver-etcd-client']))(
  '%s is issued by the etcd CA, not the cluster CA, and its key is private',
  async (base) => {
    const cert = new X509Certificate(await read(dir, `${base}.crt`));
    const etcdCA = new X509Certificate(await read(dir, 'etcd/ca.crt'));
    const clusterCA = new X509Certificate(await read(dir, 'ca.crt'));
    expect(cert.checkIssued(etcdCA) && cert.verify(etcdCA.publicKey)).toBe(true);
    expect(cert.verify(clusterCA.publicKey)).toBe(false);
    expect((await fs.stat(path.join(dir, `${base}.key`))).mode & 0o777).toBe(0o600);
  },
);

test('a second run keeps everything; a new member gets only its own pairs; a changed address re-issues that member', async () => {
  const d = await tmp();
  const first = await ensureEtcdPki(d, { members: [{ name: 'etcd-1', addresses: ['10.0.0.1'] }] });
  expect(first).toEqual(['etcd-ca', 'etcd-server/etcd-1', 'etcd-peer/etcd-1', 'etcd-healthcheck-client', 'apiserver-etcd-client']);
  expect(await ensureEtcdPki(d, { members: [{ name: 'etcd-1', addresses: ['10.0.0.1'] }] })).toEqual([]);
  const grown = [
    { name: 'etcd-1', addresses: ['10.0.0.1'] },
    { name: 'etcd-2', addresses: ['10.0.0.2'] },
  ];
  expect(await ensureEtcdPki(d, { members: grown })).toEqual(['etcd-server/etcd-2', 'etcd-peer/etcd-2']);
  expect(await ensureEtcdPki(d, { members: [grown[0], { name: 'etcd-2', addresses: ['10.0.0.22'] }] })).toEqual(['etcd-server/etcd-2', 'etcd-peer/etcd-2']);
  await fs.rm(d, { recursive: true, force: true });
});

test("a TLS server with a member's serving certificate accepts the apiserver's etcd client certificate and refuses the cluster CA's admin", async () => {
  const server = https.createServer(
    { cert: await read(dir, etcdMemberFile('etcd-1', 'server', 'crt')), key: await read(dir, etcdMemberFile('etcd-1', 'server', 'key')), ca: await read(dir, 'etcd/ca.crt'), requestCert: true, rejectUnauthorized: true },
    (_req, res) => res.end('ok'),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const caPem = await read(dir, 'etcd/ca.crt');
  // Dialled as https://127.0.0.1: the serving certificate's 127.0.0.1 SAN is checked too.
  const get = (cert: string, key: string): Promise<string> =>
    new Promise((resolve) => {
      const req = https.get({ host: '127.0.0.1', port, path: '/', agent: false, ca: caPem, cert, key, rejectUnauthorized: true }, (res) => {
        res.resume();
        resolve(String(res.statusCode));
      });
      req.on('error', (e) => resolve((e as NodeJS.ErrnoException).code ?? e.message));
    });
  try {
    expect(await get(await read(dir, 'apiserver-etcd-client.crt'), await read(dir, 'apiserver-etcd-client.key'))).toBe('200');
    expect(await get(await read(dir, 'etcd/healthcheck-client.crt'), await read(dir, 'etcd/healthcheck-client.key'))).toBe('200');
    expect(await get(await read(dir, 'admin.crt'), await read(dir, 'admin.key'))).not.toBe('200');
  } finally {
    await new Promise((r) => server.close(r));
  }
});
