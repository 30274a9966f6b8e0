import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { generatedFiles } from './generated';
import { pkiShares } from './render/compose';
import { probeScript } from './render/probe';
import { etcdServers, pkiFiles, topology } from './topology';

const root = join(__dirname, '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

interface Service {
  image?: string;
  ports?: string[];
  logging?: { driver: string; options: Record<string, string> };
  deploy?: { resources: { limits: { cpus: string; memory: string } } };
  command?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  volumes?: string[];
  restart?: string;
}
/** The serving certificate's names, from pki-init's svc-certs flags. */
const servingCertSans = (): string[] => {
  const flag = compose()[topology.pkiInit.name].command?.find((a) => a.startsWith('--apiserver-cert-extra-sans=')) ?? '';
  return flag.slice(flag.indexOf('=') + 1).split(',');
};
const compose = (): Record<string, Service> => (load(read('deploy/docker-compose.yml')) as { services: Record<string, Service> }).services;

describe('deploy files generated from deploy/topology.json', () => {
  test.each(Object.entries(generatedFiles(topology)))('%s is what `make deploy-files` writes (no drift)', (file, text) => {
    expect(read(file)).toBe(text);
  });

  test("the Dockerfile's HEALTHCHECK is the compose probe on /livez", () => {
    expect(read('deploy/Dockerfile')).toContain(`CMD ["node", "-e", ${JSON.stringify(probeScript)}, "https://127.0.0.1:${topology.apiserver.securePort}/livez"]`);
  });

  test('the apiserver replicas (one scaled service) list every etcd member, wait for all of them and the PKI, and mount it read-only', () => {
    const services = compose();
    {
      const s = services[topology.apiserver.service];
      expect(s.command).toContain(`--etcd-servers=${etcdServers(topology)}`);
      expect(etcdServers(topology).split(',').every((u) => u.startsWith('https://'))).toBe(true);
      const f = pkiFiles(topology);
      expect(s.command).toEqual(expect.arrayContaining([`--etcd-cafile=${f.etcdCaCert}`, `--etcd-certfile=${f.apiserverEtcdClientCert}`, `--etcd-keyfile=${f.apiserverEtcdClientKey}`]));
      expect(s.depends_on).toEqual({
        [topology.pkiInit.name]: { condition: 'service_completed_successfully' },
        ...Object.fromEntries(topology.etcd.members.map((e) => [e, { condition: 'service_healthy' }])),
      });
      expect(s.volumes).toEqual([`pki-apiserver:${topology.pkiDir}:ro`]);
    }
  });

  test("every etcd member serves clients and peers over TLS with client certificates from its own pairs in the PKI, metrics on plain HTTP", () => {
    const services = compose();
    const f = pkiFiles(topology);
    expect(services[topology.pkiInit.name].command).toContain(`--etcd-members=${topology.etcd.members.join(',')}`);
    for (const m of topology.etcd.members) {
      const s = services[m];
      expect(s.command).toEqual(
        expect.arrayContaining([
          `--listen-client-urls=https://0.0.0.0:${topology.etcd.clientPort}`,
          `--advertise-client-urls=https://${m}:${topology.etcd.clientPort}`,
          `--listen-peer-urls=https://0.0.0.0:${topology.etcd.peerPort}`,
          `--initial-advertise-peer-urls=https://${m}:${topology.etcd.peerPort}`,
          `--listen-metrics-urls=http://0.0.0.0:${topology.etcd.metricsPort}`,
          `--initial-cluster=${topology.etcd.members.map((e) => `${e}=https://${e}:${topology.etcd.peerPort}`).join(',')}`,
          `--cert-file=${f.etcdServerCert(m)}`,
          `--key-file=${f.etcdServerKey(m)}`,
          `--trusted-ca-file=${f.etcdCaCert}`,
          '--client-cert-auth=true',
          `--peer-cert-file=${f.etcdPeerCert(m)}`,
          `--peer-key-file=${f.etcdPeerKey(m)}`,
          `--peer-trusted-ca-file=${f.etcdCaCert}`,
          '--peer-client-cert-auth=true',
        ]),
      );
      expect(s.volumes).toContain(`pki-etcd:${topology.pkiDir}:ro`);
      expect(s.depends_on).toEqual({ [topology.pkiInit.name]: { condition: 'service_completed_successfully' } });
      expect(s.healthcheck?.test).toEqual(expect.arrayContaining([`--cacert=${f.etcdCaCert}`, `--cert=${f.etcdHealthcheckClientCert}`, `--key=${f.etcdHealthcheckClientKey}`]));
    }
  });

  test('every long-running service has a healthcheck and a restart policy; only the PKI writer is one-shot', () => {
    for (const [name, s] of Object.entries(compose())) {
      if (name === topology.pkiInit.name) {
        expect(s).toMatchObject({ restart: 'no', healthcheck: { disable: true } });
        continue;
      }
      expect(s.restart).toBe('unless-stopped');
      expect(s.healthcheck?.test?.[0]).toBe('CMD');
    }
  });

  test('Prometheus finds the apiserver replicas through DNS (however many there are) and scrapes every controller manager and etcd member', () => {
    interface Job { job_name: string; static_configs?: { targets: string[] }[]; dns_sd_configs?: { names: string[]; type: string; port: number }[]; tls_config?: { server_name?: string } }
    const prom = load(read('deploy/prometheus/prometheus.yml')) as { scrape_configs: Job[] };
    const jobs = Object.fromEntries(prom.scrape_configs.map((j) => [j.job_name, j]));
    const a = topology.apiserver;
    expect(jobs.apiserver.static_configs).toBeUndefined();
    expect(jobs.apiserver.dns_sd_configs).toEqual([expect.objectContaining({ names: [a.service], type: 'A', port: a.securePort })]);
    // Scraped by address: the serving certificate is checked against the service name it carries.
    expect(jobs.apiserver.tls_config?.server_name).toBe(a.service);
    expect(servingCertSans()).toContain(a.service);
    const targets = (j: Job): string[] => (j.static_configs ?? []).flatMap((c) => c.targets.map((t) => t.split(':')[0]));
    expect({ cm: targets(jobs['controller-manager']), etcd: targets(jobs.etcd) }).toEqual({ cm: topology.controllerManager.members, etcd: topology.etcd.members });
  });

  test('HAProxy health-checks every replica with GET /readyz over TLS, its servers filled from DNS by a template of maxReplicas slots', () => {
    const cfg = read('deploy/haproxy/haproxy.cfg');
    const a = topology.apiserver;
    expect(cfg).toContain('option httpchk GET /readyz');
    expect(cfg).toMatch(/default-server check check-ssl verify none .* resolvers docker init-addr none\n/);
    expect(cfg).toContain(`  server-template ${a.service}- 1-${a.maxReplicas} ${a.service}:${a.securePort}\n`);
    expect(cfg).toContain('  hold obsolete 0s\n');
    expect(cfg).not.toMatch(/^\s+server /m);
  });

  test('the replicas scale: no hostname, container name or published port, the default count from a variable', () => {
    const s = compose()[topology.apiserver.service] as Service & { hostname?: string; container_name?: string; deploy: { replicas?: string } };
    const a = topology.apiserver;
    expect([s.hostname, s.container_name, s.ports]).toEqual([undefined, undefined, undefined]);
    expect(s.deploy.replicas).toBe(`\${${a.replicasVariable}:-${a.replicas}}`);
    expect(a.maxReplicas).toBeGreaterThanOrEqual(a.replicas);
  });

  test('images and published ports come from variables with the defaults of the topology; ports bind 127.0.0.1 unless an address is set', () => {
    const services = compose();
    expect(services[topology.apiserver.service].image).toBe(`\${${topology.image.variable}:-${topology.image.name}}`);
    expect(services[topology.etcd.members[0]].image).toBe(`\${${topology.etcd.imageVariable}:-${topology.etcd.image}}`);
    const lb = topology.loadBalancer;
    expect(services[lb.name].ports).toEqual([`\${${lb.addressVariable}:-127.0.0.1}:\${${lb.portVariable}:-${lb.port}}:${lb.port}`]);
    const p = topology.prometheus;
    expect(services[p.name].ports).toEqual([`\${${p.addressVariable}:-127.0.0.1}:\${${p.portVariable}:-${p.port}}:${p.port}`]);
  });

  test('every service rotates its logs and has CPU and memory limits', () => {
    for (const s of Object.values(compose())) {
      expect(s.logging).toEqual({ driver: 'local', options: { 'max-size': topology.logging.maxSize, 'max-file': String(topology.logging.maxFile) } });
      expect(s.deploy?.resources.limits).toEqual({ cpus: expect.stringMatching(/^[0-9.]+$/), memory: expect.stringMatching(/^[0-9]+[mg]$/) });
    }
  });

  test('every etcd member mounts the backup volume where the documented snapshot writes', () => {
    for (const m of topology.etcd.members) expect(compose()[m].volumes).toContain(`backup:${topology.backupDir}`);
  });

  test('each component mounts only its share of the PKI, which pki-init copies; no share holds a key its component does not use', () => {
    const services = compose();
    const f = pkiFiles(topology);
    const shares = pkiShares(topology);
    expect(shares.apiserver).not.toContain(f.caKey);
    expect(shares.etcd).not.toEqual(expect.arrayContaining([f.caKey, f.saKey, f.servingKey, f.monitoringKey]));
    expect(shares.prometheus).toEqual([f.caCert, f.monitoringCert, f.monitoringKey]);
    const script = services[topology.pkiInit.name].command?.[2] ?? '';
    for (const [c, files] of Object.entries(shares)) {
      expect(script).toContain(`cp -p --parents ${files.map((x) => x.slice(topology.pkiDir.length + 1)).join(' ')} /var/lib/svc/pki-${c}/`);
    }
    for (const [name, s] of Object.entries(services)) {
      if (name !== topology.pkiInit.name) expect(s.volumes?.filter((v) => v.startsWith('pki:'))).toEqual([]);
    }
  });
});
