// deploy/docker-compose.yml from the topology: 3 etcd members, the one-shot PKI writer, the
// apiserver replicas on the shared read-only PKI, HAProxy, the controller managers and Prometheus.
// Start order waits for health (depends_on conditions, compose spec as docker-compose ≥ 1.29 reads it).
import { dump } from 'js-yaml';
import { pkiFiles, type Resources, type Topology } from '../topology';
import { apiserverCommand, certsCommand, composePlacement, controllerManagerCommand, etcdCommand, etcdctlTlsFlags, prometheusArgs } from './commands';
import { probeCommand } from './probe';
import { composeRulesFile } from './prometheus';

type Service = Record<string, unknown>;

const healthy = { condition: 'service_healthy' };
const pkiWritten = { condition: 'service_completed_successfully' };
const timing = { interval: '10s', timeout: '5s', retries: 6, start_period: '20s' };

/** `${NAME:-default}`: compose takes the value from the environment (or .env), else the default. */
const variable = (name: string, fallback: string | number): string => `\${${name}:-${fallback}}`;

/** A published port on 127.0.0.1 unless the operator names another address. */
const published = (addressVariable: string, portVariable: string, port: number): string => `${variable(addressVariable, '127.0.0.1')}:${variable(portVariable, port)}:${port}`;

/**
 * What every service carries: rotated logs (docker's default json-file driver never rotates) and
 * the sizing of docs/operations.md as limits.
 */
function common(t: Topology, r: Resources): Service {
  return {
    logging: { driver: t.logging.driver, options: { 'max-size': t.logging.maxSize, 'max-file': String(t.logging.maxFile) } },
    deploy: { resources: { limits: { cpus: r.cpus, memory: r.memory } } },
  };
}

const svcImage = (t: Topology): string => variable(t.image.variable, t.image.name);

type Component = 'apiserver' | 'etcd' | 'controller-manager' | 'prometheus';

/**
 * The PKI files each component reads. pki-init copies them from the whole PKI into one volume
 * per component, mounted at the same path, so that no component can read a key it does not use
 * (an apiserver the CA key, etcd the admin key).
 */
export function pkiShares(t: Topology): Record<Component, string[]> {
  const f = pkiFiles(t);
  const etcdMembers = t.etcd.members.flatMap((m) => [f.etcdServerCert(m), f.etcdServerKey(m), f.etcdPeerCert(m), f.etcdPeerKey(m)]);
  return {
    apiserver: [f.caCert, f.servingCert, f.servingKey, f.saKey, f.saPub, f.etcdCaCert, f.apiserverEtcdClientCert, f.apiserverEtcdClientKey],
    // The healthcheck-client pair serves the healthcheck and the operator's etcdctl (backups).
    etcd: [f.etcdCaCert, ...etcdMembers, f.etcdHealthcheckClientCert, f.etcdHealthcheckClientKey],
    'controller-manager': [f.caCert, f.caKey, f.controllerManagerKubeconfig],
    prometheus: [f.caCert, f.monitoringCert, f.monitoringKey],
  };
}

const shareVolume = (c: Component): string => `pki-${c}`;
const shareMount = (t: Topology, c: Component): string => `${shareVolume(c)}:${t.pkiDir}:ro`;
const shareTarget = (c: Component): string => `/var/lib/svc/${shareVolume(c)}`;

/**
 * pki-init runs svc-certs into the whole PKI, gives it to the image's user, and copies each
 * component's files (cp -p keeps owner and mode, --parents the etcd/ layout). It runs as root for
 * the copies: the share volumes are new directories owned by root. `$$` is compose's escaped `$`.
 */
function pkiInitScript(t: Topology): string {
  const rel = (file: string): string => file.slice(t.pkiDir.length + 1);
  const copies = Object.entries(pkiShares(t)).map(([c, files]) => `cp -p --parents ${files.map(rel).join(' ')} ${shareTarget(c as Component)}/`);
  return ['set -e', 'svc-certs "$$@"', `chown -R ${t.image.uid}:${t.image.gid} ${t.pkiDir}`, `cd ${t.pkiDir}`, ...copies].join('\n');
}

function etcdServices(t: Topology): Record<string, Service> {
  const out: Record<string, Service> = {};
  for (const m of t.etcd.members) {
    out[m] = {
      image: variable(t.etcd.imageVariable, t.etcd.image),
      hostname: m,
      command: etcdCommand(t, m, composePlacement(t)),
      // Its serving and peer pairs and the etcd CA come from the PKI volume (etcd/<member>/);
      // `etcdctl snapshot save` writes into the backup volume (docs/operations.md).
      volumes: [`${m}-data:/var/lib/etcd`, shareMount(t, 'etcd'), `backup:${t.backupDir}`],
      depends_on: { [t.pkiInit.name]: pkiWritten },
      // The image is distroless (no HTTP client for the plain metrics listener's /health): the
      // probe is etcdctl over TLS with the healthcheck-client pair, as kubeadm's probe was before
      // it moved to the metrics port; healthy once the member sees a quorum.
      healthcheck: {
        test: ['CMD', '/usr/local/bin/etcdctl', `--endpoints=https://127.0.0.1:${t.etcd.clientPort}`, ...etcdctlTlsFlags(composePlacement(t).pki), 'endpoint', 'health'],
        ...timing,
      },
      restart: 'unless-stopped',
      ...common(t, t.etcd.resources),
    };
  }
  return out;
}

/** The svc image's build arguments (deploy/Dockerfile), passed through from the environment. */
const buildArgs = ['NODE_IMAGE', 'RUNTIME_BASE_IMAGE', 'NPM_REGISTRY', 'EXTRA_CA_CERT'];

function pkiInitService(t: Topology): Service {
  return {
    image: variable(t.pkiInit.imageVariable, t.image.name),
    // Unset arguments keep the Dockerfile's defaults (a list entry without a value).
    build: { context: '..', dockerfile: t.image.dockerfile, args: buildArgs },
    user: '0',
    command: ['sh', '-c', pkiInitScript(t), t.pkiInit.name, ...certsCommand(t, composePlacement(t), t.pkiDir).slice(1)],
    volumes: [`pki:${t.pkiDir}`, ...(['apiserver', 'etcd', 'controller-manager', 'prometheus'] as const).map((c) => `${shareVolume(c)}:${shareTarget(c)}`)],
    // One-shot: runs to completion; every consumer waits for service_completed_successfully.
    healthcheck: { disable: true },
    restart: 'no',
    ...common(t, t.pkiInit.resources),
  };
}

/**
 * The replicas: one service of identical containers (no hostname, no container name, no published
 * port, so `--scale` can add any number), as many as the replicas variable says by default. The
 * balancer and Prometheus find them through Docker's DNS; a scale-down stops the removed ones
 * gracefully (stop_grace_period covers --shutdown-delay-duration and the watch drain).
 */
function apiserverService(t: Topology): Service {
  const a = t.apiserver;
  const base = common(t, a.resources);
  return {
    image: svcImage(t),
    command: apiserverCommand(t, a.service, composePlacement(t)),
    volumes: [shareMount(t, 'apiserver')],
    depends_on: { [t.pkiInit.name]: pkiWritten, ...Object.fromEntries(t.etcd.members.map((e) => [e, healthy])) },
    healthcheck: { test: probeCommand(`https://127.0.0.1:${a.securePort}/livez`), ...timing },
    stop_grace_period: a.stopGracePeriod,
    restart: 'unless-stopped',
    ...base,
    deploy: { ...(base.deploy as Record<string, unknown>), replicas: variable(a.replicasVariable, a.replicas) },
  };
}

function loadBalancerService(t: Topology): Service {
  const lb = t.loadBalancer;
  return {
    image: variable(lb.imageVariable, lb.image),
    hostname: lb.name,
    volumes: ['./haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro'],
    ports: [published(lb.addressVariable, lb.portVariable, lb.port)],
    // No depends_on on the replicas: compose recreates a service's dependents with it, and an
    // upgrade of the replicas must not restart the balancer. Until a replica resolves and passes
    // its check the balancer has no server (init-addr none) and its healthcheck fails.
    // The monitor URI answers 503 while no apiserver passes its /readyz check (haproxy.cfg).
    healthcheck: { test: ['CMD', 'wget', '-q', '-O', '/dev/null', `http://127.0.0.1:${lb.healthPort}/healthz`], ...timing },
    restart: 'unless-stopped',
    ...common(t, lb.resources),
  };
}

function controllerManagerServices(t: Topology): Record<string, Service> {
  const out: Record<string, Service> = {};
  for (const m of t.controllerManager.members) {
    out[m] = {
      image: svcImage(t),
      hostname: m,
      command: controllerManagerCommand(t, m, composePlacement(t)),
      volumes: [shareMount(t, 'controller-manager')],
      depends_on: { [t.pkiInit.name]: pkiWritten, [t.loadBalancer.name]: healthy },
      healthcheck: { test: probeCommand(`https://127.0.0.1:${t.controllerManager.securePort}/healthz`), ...timing },
      restart: 'unless-stopped',
      ...common(t, t.controllerManager.resources),
    };
  }
  return out;
}

function prometheusService(t: Topology): Service {
  const p = t.prometheus;
  return {
    image: variable(p.imageVariable, p.image),
    hostname: p.name,
    // Its own uid (owner of /prometheus in the image) and the svc image's group, which may read
    // the monitoring key (mode 0640) in the PKI volume.
    user: `${p.uid}:${t.image.gid}`,
    command: prometheusArgs(t, composePlacement(t)),
    volumes: ['./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro', `./prometheus/rules.yml:${composeRulesFile}:ro`, shareMount(t, 'prometheus'), 'prometheus-data:/prometheus'],
    ports: [published(p.addressVariable, p.portVariable, p.port)],
    depends_on: { [t.pkiInit.name]: pkiWritten },
    healthcheck: { test: ['CMD', 'wget', '-q', '-O', '/dev/null', `http://127.0.0.1:${p.port}/-/ready`], ...timing },
    restart: 'unless-stopped',
    ...common(t, p.resources),
  };
}

export function renderCompose(t: Topology): string {
  const doc = {
    services: {
      [t.pkiInit.name]: pkiInitService(t),
      ...etcdServices(t),
      [t.apiserver.service]: apiserverService(t),
      [t.loadBalancer.name]: loadBalancerService(t),
      ...controllerManagerServices(t),
      [t.prometheus.name]: prometheusService(t),
    },
    volumes: Object.fromEntries(['pki', ...(['apiserver', 'etcd', 'controller-manager', 'prometheus'] as const).map(shareVolume), ...t.etcd.members.map((m) => `${m}-data`), 'prometheus-data', 'backup'].map((v) => [v, {}])),
  };
  const header = '# Generated from deploy/topology.json by `make deploy-files` (deploy/generate.ts). Do not edit.\n';
  return header + dump(doc, { noRefs: true, lineWidth: -1 });
}
