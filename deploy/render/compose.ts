// deploy/docker-compose.yml from the topology: 3 etcd members, the one-shot PKI writer, the
// apiserver replicas on the shared read-only PKI, HAProxy, the controller managers and Prometheus.
// Start order waits for health (depends_on conditions, compose spec as docker-compose ≥ 1.29 reads it).
import { dump } from 'js-yaml';
import { controlPlaneEndpoint, etcdClientUrl, etcdPeerUrl, etcdServers, pkiFiles, type Topology } from '../topology';
import { probeCommand } from './probe';

type Service = Record<string, unknown>;

const healthy = { condition: 'service_healthy' };
const pkiWritten = { condition: 'service_completed_successfully' };
const timing = { interval: '10s', timeout: '5s', retries: 6, start_period: '20s' };

function etcdServices(t: Topology): Record<string, Service> {
  const initialCluster = t.etcd.members.map((m) => `${m}=${etcdPeerUrl(t, m)}`).join(',');
  const out: Record<string, Service> = {};
  for (const m of t.etcd.members) {
    out[m] = {
      image: t.etcd.image,
      hostname: m,
      command: [
        '/usr/local/bin/etcd',
        `--name=${m}`,
        '--data-dir=/var/lib/etcd',
        `--listen-client-urls=http://0.0.0.0:${t.etcd.clientPort}`,
        `--advertise-client-urls=${etcdClientUrl(t, m)}`,
        `--listen-peer-urls=http://0.0.0.0:${t.etcd.peerPort}`,
        `--initial-advertise-peer-urls=${etcdPeerUrl(t, m)}`,
        `--listen-metrics-urls=http://0.0.0.0:${t.etcd.metricsPort}`,
        `--initial-cluster=${initialCluster}`,
        '--initial-cluster-state=new',
        `--initial-cluster-token=${t.etcd.clusterToken}`,
        ...t.etcd.flags,
      ],
      volumes: [`${m}-data:/var/lib/etcd`],
      // The image is distroless: the probe is etcdctl itself, healthy once the member sees a quorum.
      healthcheck: { test: ['CMD', '/usr/local/bin/etcdctl', `--endpoints=http://127.0.0.1:${t.etcd.clientPort}`, 'endpoint', 'health'], ...timing },
      restart: 'unless-stopped',
    };
  }
  return out;
}

function pkiInitService(t: Topology): Service {
  const sans = [t.loadBalancer.name, ...t.apiserver.members, 'localhost'];
  return {
    image: t.image.name,
    build: { context: '..', dockerfile: t.image.dockerfile },
    command: ['svc-certs', `--cert-dir=${t.pkiDir}`, `--apiserver-cert-extra-sans=${sans.join(',')}`, `--control-plane-endpoint=${controlPlaneEndpoint(t)}`],
    volumes: [`pki:${t.pkiDir}`],
    // One-shot: runs to completion; every consumer waits for service_completed_successfully.
    healthcheck: { disable: true },
    restart: 'no',
  };
}

function apiserverServices(t: Topology): Record<string, Service> {
  const f = pkiFiles(t);
  const out: Record<string, Service> = {};
  for (const m of t.apiserver.members) {
    out[m] = {
      image: t.image.name,
      hostname: m,
      command: [
        'svc-apiserver',
        `--etcd-servers=${etcdServers(t)}`,
        '--bind-address=0.0.0.0',
        `--secure-port=${t.apiserver.securePort}`,
        // Everything from the shared read-only volume: nothing is generated per replica, so all
        // replicas present the same serving certificate and verify the same ServiceAccount tokens.
        `--tls-cert-file=${f.servingCert}`,
        `--tls-private-key-file=${f.servingKey}`,
        `--client-ca-file=${f.caCert}`,
        `--service-account-signing-key-file=${f.saKey}`,
        `--service-account-key-file=${f.saPub}`,
        ...t.apiserver.flags,
      ],
      volumes: [`pki:${t.pkiDir}:ro`],
      depends_on: { [t.pkiInit.name]: pkiWritten, ...Object.fromEntries(t.etcd.members.map((e) => [e, healthy])) },
      healthcheck: { test: probeCommand(`https://127.0.0.1:${t.apiserver.securePort}/livez`), ...timing },
      stop_grace_period: t.apiserver.stopGracePeriod,
      restart: 'unless-stopped',
    };
  }
  return out;
}

function loadBalancerService(t: Topology): Service {
  const lb = t.loadBalancer;
  return {
    image: lb.image,
    hostname: lb.name,
    volumes: ['./haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro'],
    ports: [`${lb.port}:${lb.port}`],
    depends_on: Object.fromEntries(t.apiserver.members.map((m) => [m, healthy])),
    // The monitor URI answers 503 while no apiserver passes its /readyz check (haproxy.cfg).
    healthcheck: { test: ['CMD', 'wget', '-q', '-O', '/dev/null', `http://127.0.0.1:${lb.healthPort}/healthz`], ...timing },
    restart: 'unless-stopped',
  };
}

function controllerManagerServices(t: Topology): Record<string, Service> {
  const f = pkiFiles(t);
  const out: Record<string, Service> = {};
  for (const m of t.controllerManager.members) {
    out[m] = {
      image: t.image.name,
      hostname: m,
      command: [
        'svc-controller-manager',
        `--kubeconfig=${f.controllerManagerKubeconfig}`,
        `--cluster-signing-cert-file=${f.caCert}`,
        `--cluster-signing-key-file=${f.caKey}`,
        '--bind-address=0.0.0.0',
        `--secure-port=${t.controllerManager.securePort}`,
        ...t.controllerManager.flags,
      ],
      volumes: [`pki:${t.pkiDir}:ro`],
      depends_on: { [t.pkiInit.name]: pkiWritten, [t.loadBalancer.name]: healthy },
      healthcheck: { test: probeCommand(`https://127.0.0.1:${t.controllerManager.securePort}/healthz`), ...timing },
      restart: 'unless-stopped',
    };
  }
  return out;
}

function prometheusService(t: Topology): Service {
  const p = t.prometheus;
  return {
    image: p.image,
    hostname: p.name,
    // Its own uid (owner of /prometheus in the image) and the svc image's group, which may read
    // the monitoring key (mode 0640) in the PKI volume.
    user: `${p.uid}:${t.image.gid}`,
    command: ['--config.file=/etc/prometheus/prometheus.yml', '--storage.tsdb.path=/prometheus', `--web.listen-address=:${p.port}`],
    volumes: ['./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro', `pki:${t.pkiDir}:ro`, 'prometheus-data:/prometheus'],
    ports: [`${p.port}:${p.port}`],
    depends_on: { [t.pkiInit.name]: pkiWritten },
    healthcheck: { test: ['CMD', 'wget', '-q', '-O', '/dev/null', `http://127.0.0.1:${p.port}/-/ready`], ...timing },
    restart: 'unless-stopped',
  };
}

export function renderCompose(t: Topology): string {
  const doc = {
    services: {
      ...etcdServices(t),
      [t.pkiInit.name]: pkiInitService(t),
      ...apiserverServices(t),
      [t.loadBalancer.name]: loadBalancerService(t),
      ...controllerManagerServices(t),
      [t.prometheus.name]: prometheusService(t),
    },
    volumes: Object.fromEntries(['pki', ...t.etcd.members.map((m) => `${m}-data`), 'prometheus-data'].map((v) => [v, {}])),
  };
  const header = '# Generated from deploy/topology.json by `make deploy-files` (deploy/generate.ts). Do not edit.\n';
  return header + dump(doc, { noRefs: true, lineWidth: -1 });
}
