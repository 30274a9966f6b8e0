// The local twin of deploy/docker-compose.yml (`make cluster`), as data: every member of the
// topology on its own host (a network namespace on a bridge, or a distinct 127.0.0.x address when
// namespaces cannot be made), the command each runs there, the health URL that says it is up, and
// the files it reads. Pure: the runner (runner.ts) carries it out.
import * as path from 'node:path';
import { apiserverCommand, certsCommand, controllerManagerCommand, etcdCommand, prometheusArgs, type Placement } from '../render/commands';
import { renderHaproxy } from '../render/haproxy';
import { renderPrometheus } from '../render/prometheus';
import { apiserverMembers, pkiFiles, type Topology } from '../topology';
import { hostAddresses, parseCidr } from './addresses';

export type Mode = 'netns' | 'loopback';
export type Role = 'etcd' | 'apiserver' | 'loadBalancer' | 'controllerManager' | 'prometheus';

export interface ClusterOptions {
  mode: Mode;
  /** Everything the cluster writes: PKI, etcd data, logs, configs, state (data/cluster). */
  root: string;
  repoRoot: string;
  /** Names of namespaces (<prefix>-<member>), the bridge (<prefix>br0) and links (<prefix>v<n>). */
  prefix: string;
  /** The private network of the namespaces, e.g. 10.213.0.0/25 (netns mode). */
  subnet: string;
  /** The first of the 127.0.0.x addresses (loopback mode). */
  loopbackSubnet: string;
  binaries: { node: string; etcd: string; haproxy: string; prometheus: string };
  /** Prometheus's scrape and evaluation interval; default the topology's. */
  scrapeInterval?: string;
}

export interface Host {
  member: string;
  role: Role;
  address: string;
  /** netns mode: the member's namespace and the host end of its veth pair. */
  netns?: string;
  vethHost?: string;
}

export interface ProcessSpec {
  member: string;
  argv: string[];
  /** GET answering 200 once the member is up (https is not verified: the check is liveness). */
  ready: string;
  log: string;
}

export interface Bridge {
  name: string;
  address: string;
  prefixLength: number;
}

export interface ClusterPlan {
  mode: Mode;
  prefix: string;
  root: string;
  bridge?: Bridge;
  hosts: Host[];
  /** svc-certs, run once on the host before anything starts. */
  certs: string[];
  /** Files written before start: absolute path → content. */
  files: Record<string, string>;
  /** Started in this order, each stage waiting for the previous one's health. */
  stages: ProcessSpec[][];
  /** The admin kubeconfig svc-certs writes (pointing at the load balancer), and its copy for users. */
  kubeconfig: { from: string; to: string };
}

const maxPrefix = 8;

export function members(t: Topology): { member: string; role: Role }[] {
  return [
    ...t.etcd.members.map((member) => ({ member, role: 'etcd' as const })),
    ...apiserverMembers(t).map((member) => ({ member, role: 'apiserver' as const })),
    { member: t.loadBalancer.name, role: 'loadBalancer' as const },
    ...t.controllerManager.members.map((member) => ({ member, role: 'controllerManager' as const })),
    { member: t.prometheus.name, role: 'prometheus' as const },
  ];
}

export function planHosts(t: Topology, o: Pick<ClusterOptions, 'mode' | 'prefix' | 'subnet' | 'loopbackSubnet'>): { hosts: Host[]; bridge?: Bridge } {
  if (!/^[a-z][a-z0-9]*$/.test(o.prefix) || o.prefix.length > maxPrefix) {
    // Link names are at most 15 bytes: <prefix>v<n> and <prefix>br0 must fit.
    throw new Error(`prefix ${JSON.stringify(o.prefix)}: want 1-${maxPrefix} lowercase letters and digits`);
  }
  const all = members(t);
  const net = parseCidr(o.mode === 'netns' ? o.subnet : o.loopbackSubnet);
  const { gateway, addresses } = hostAddresses(net, all.length);
  const hosts = all.map(({ member, role }, i): Host => {
    const h: Host = { member, role, address: addresses[i] };
    if (o.mode === 'netns') {
      h.netns = `${o.prefix}-${member}`;
      h.vethHost = `${o.prefix}v${i}`;
    }
    return h;
  });
  return o.mode === 'netns' ? { hosts, bridge: { name: `${o.prefix}br0`, address: gateway, prefixLength: net.prefixLength } } : { hosts };
}

export function planCluster(t: Topology, o: ClusterOptions): ClusterPlan {
  const { hosts, bridge } = planHosts(t, o);
  const byMember = new Map(hosts.map((h) => [h.member, h]));
  const hostOf = (m: string): string => {
    const h = byMember.get(m);
    if (!h) throw new Error(`no host for ${m}`);
    return h.address;
  };
  const at = (...p: string[]): string => path.join(o.root, ...p);
  const pkiDir = at('pki');
  const promDir = at('prometheus');
  const placement: Placement = {
    host: hostOf,
    listen: hostOf,
    pki: pkiFiles(t, pkiDir),
    etcdDataDir: (m) => at('etcd', m),
    program: (name) => (name === 'etcd' ? [o.binaries.etcd] : [o.binaries.node, path.join(o.repoRoot, 'bin', name)]),
    prometheus: { configFile: path.join(promDir, 'prometheus.yml'), storageDir: path.join(promDir, 'data') },
    dockerDns: false,
  };
  const haproxyCfg = at('haproxy.cfg');
  const inHost = (member: string, argv: string[]): string[] => {
    const ns = byMember.get(member)?.netns;
    return ns ? ['ip', 'netns', 'exec', ns, ...argv] : argv;
  };
  const spec = (member: string, argv: string[], ready: string): ProcessSpec => ({ member, argv: inHost(member, argv), ready, log: at('logs', `${member}.log`) });
  const lb = t.loadBalancer;
  const p = t.prometheus;
  return {
    mode: o.mode,
    prefix: o.prefix,
    root: o.root,
    bridge,
    hosts,
    certs: certsCommand(t, placement, pkiDir),
    files: {
      [haproxyCfg]: renderHaproxy(t, placement),
      [placement.prometheus.configFile]: renderPrometheus(t, placement, path.join(o.repoRoot, 'deploy/prometheus/rules.yml'), o.scrapeInterval),
    },
    stages: [
      t.etcd.members.map((m) => spec(m, etcdCommand(t, m, placement), `http://${hostOf(m)}:${t.etcd.metricsPort}/health`)),
      apiserverMembers(t).map((m) => spec(m, apiserverCommand(t, m, placement), `https://${hostOf(m)}:${t.apiserver.securePort}/readyz`)),
      // -db: stay in the foreground (the runner owns the process).
      [spec(lb.name, [o.binaries.haproxy, '-db', '-f', haproxyCfg], `http://${hostOf(lb.name)}:${lb.healthPort}/healthz`)],
      t.controllerManager.members.map((m) => spec(m, controllerManagerCommand(t, m, placement), `https://${hostOf(m)}:${t.controllerManager.securePort}/healthz`)),
      [spec(p.name, [o.binaries.prometheus, ...prometheusArgs(t, placement)], `http://${hostOf(p.name)}:${p.port}/-/ready`)],
    ],
    kubeconfig: { from: placement.pki.adminKubeconfig, to: at('admin.kubeconfig') },
  };
}

/** The process spec of one member (to restart it). */
export function processOf(plan: ClusterPlan, member: string): ProcessSpec {
  const s = plan.stages.flat().find((p) => p.member === member);
  if (!s) throw new Error(`${member} is not a member of the cluster`);
  return s;
}

export function hostOf(plan: ClusterPlan, member: string): Host {
  const h = plan.hosts.find((x) => x.member === member);
  if (!h) throw new Error(`${member} is not a member of the cluster`);
  return h;
}
