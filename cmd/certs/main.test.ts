import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadKubeconfig } from '../../lib/client/kubeconfig';
import { certificateFacts, parseCertificates } from '../../lib/signing';
import { parseFlags } from '../flagSet';
import { writeClusterPki } from './main';
import { certsFlags, toCertsOptions } from './options';

const made: string[] = [];
const tmp = async (): Promise<string> => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-certs-'));
  made.push(dir);
  return dir;
};
afterAll(() => Promise.all(made.map((d) => fs.rm(d, { recursive: true, force: true }))));
const options = (argv: string[]) => toCertsOptions(parseFlags(argv, certsFlags).values);
const facts = async (file: string) => certificateFacts(parseCertificates(await fs.readFile(file, 'utf8'))[0].cert);

describe('svc-certs', () => {
  test('writes the shared PKI once: serving SANs for every replica and the load balancer, monitoring client, kubeconfigs at the endpoint', async () => {
    const dir = await tmp();
    const opts = options([`--cert-dir=${dir}`, '--apiserver-cert-extra-sans=apiserver-lb,apiserver-1,10.0.0.7', '--control-plane-endpoint=apiserver-lb:6443']);
    const first = await writeClusterPki(opts);
    expect(first.generated.sort()).toEqual(['admin', 'apiserver', 'ca', 'controller-manager', 'monitoring', 'sa']);
    await expect(fs.access(path.join(dir, 'etcd'))).rejects.toThrow();

    const serving = await facts(path.join(dir, 'apiserver.crt'));
    expect(serving.dnsNames).toEqual(expect.arrayContaining(['localhost', 'apiserver-lb', 'apiserver-1']));
    expect(serving.ipAddresses).toEqual(expect.arrayContaining(['127.0.0.1', '10.0.0.7']));

    const monitoring = await facts(path.join(dir, 'monitoring.crt'));
    expect(monitoring.commonName).toBe('prometheus');
    expect(monitoring.organizations).toEqual(['system:monitoring']);
    // The scraper reads the key through the group (another uid than the writer).
    expect((await fs.stat(path.join(dir, 'monitoring.key'))).mode & 0o777).toBe(0o640);
    await expect(fs.access(path.join(dir, 'sa.key'))).resolves.toBeUndefined();

    for (const name of ['admin.kubeconfig', 'controller-manager.kubeconfig']) {
      const kc = await loadKubeconfig(path.join(dir, name));
      expect(kc.server).toBe('https://apiserver-lb:6443');
    }

    // A second run (the init service restarted) keeps every key and certificate.
    const ca = await fs.readFile(path.join(dir, 'ca.crt'), 'utf8');
    const second = await writeClusterPki(opts);
    expect(second.generated).toEqual([]);
    expect(await fs.readFile(path.join(dir, 'ca.crt'), 'utf8')).toBe(ca);
  });

  test.each([
    ['no port', ['--control-plane-endpoint=apiserver-lb'], /--control-plane-endpoint: invalid value "apiserver-lb" \(want host:port\)/],
    ['a URL', ['--control-plane-endpoint=https://lb:6443'], /invalid value/],
    ['empty cert dir', ['--cert-dir='], /--cert-dir must not be empty/],
    ['an etcd member name with a slash', ['--etcd-members=../etcd-1'], /--etcd-members: invalid member name "..\/etcd-1"/],
    ['an etcd member listed twice', ['--etcd-members=etcd-1,etcd-1=10.0.0.1'], /--etcd-members: etcd-1 is listed twice/],
    ['an etcd member address that is neither a name nor an IP', ['--etcd-members=etcd-1=10.0.0.1:2379'], /invalid address "10.0.0.1:2379" for etcd-1/],
    ['a bad etcd SAN', ['--etcd-server-cert-extra-sans=a b'], /--etcd-server-cert-extra-sans: invalid value "a b"/],
  ])('rejects %s', (_name, argv, message) => {
    expect(() => options(argv)).toThrow(message);
  });

  test('kubeconfigs default to the cert dir; IPv6 endpoints are accepted', () => {
    expect(options(['--cert-dir=/p', '--control-plane-endpoint=[::1]:6443'])).toEqual({
      certDir: '/p',
      extraSANs: [],
      controlPlaneEndpoint: '[::1]:6443',
      kubeconfigDir: '/p',
      etcdMembers: [],
      etcdServerCertExtraSANs: [],
      etcdPeerCertExtraSANs: [],
    });
  });

  test('--etcd-members takes names, or name=address (DNS name or IP)', () => {
    expect(options(['--etcd-members=etcd-1,etcd-2=10.0.0.2,etcd-3=etcd-3.example', '--etcd-peer-cert-extra-sans=10.9.9.9']).etcdMembers).toEqual([
      { name: 'etcd-1', addresses: [] },
      { name: 'etcd-2', addresses: ['10.0.0.2'] },
      { name: 'etcd-3', addresses: ['etcd-3.example'] },
    ]);
  });

  test('without --etcd-members no etcd PKI is written (external etcd, as kubeadm)', async () => {
    const dir = await tmp();
    const r = await writeClusterPki(options([`--cert-dir=${dir}`]));
    expect(r.generated.filter((g) => g.includes('etcd'))).toEqual([]);
    await expect(fs.access(path.join(dir, 'etcd'))).rejects.toThrow();
  });
});
