// The cluster's one description (deploy/topology.json) as a typed value, plus the facts every
// renderer derives from it (URLs, file paths in the shared PKI volume), so that no renderer
// spells a member list, port or path on its own.
import * as path from 'node:path';
import raw from './topology.json';

/** Compose's resource limits of one container (docker's --cpus and --memory). */
export interface Resources {
  cpus: string;
  memory: string;
}

/**
 * Compose reads image names, host ports and bind addresses from the environment (the `*Variable`
 * names), with the values here as defaults.
 */
export interface Topology {
  image: { name: string; variable: string; dockerfile: string; uid: number; gid: number };
  /** Every compose service's log driver, rotated at maxSize, maxFile files kept. */
  logging: { driver: string; maxSize: string; maxFile: number };
  /** Where etcd members mount the backup volume (docs/operations.md, backup and restore). */
  backupDir: string;
  pkiDir: string;
  /**
   * pki-init's image has its own variable (default: the svc image): compose recreates the
   * dependents of a recreated service, so an upgrade that moved pki-init to the new image would
   * recreate etcd, Prometheus and everything after them.
   */
  pkiInit: { name: string; imageVariable: string; resources: Resources };
  etcd: { image: string; imageVariable: string; resources: Resources; members: string[]; clientPort: number; peerPort: number; metricsPort: number; clusterToken: string; flags: string[] };
  /**
   * One compose service scaled to `replicas` (`--scale`, or the replicas variable), found by
   * HAProxy and Prometheus through Docker's DNS, at most maxReplicas of them (HAProxy's server
   * slots); the local twin runs `replicas` named members (apiserverMembers).
   */
  apiserver: { service: string; replicas: number; replicasVariable: string; maxReplicas: number; securePort: number; flags: string[]; stopGracePeriod: string; resources: Resources };
  loadBalancer: { name: string; image: string; imageVariable: string; portVariable: string; addressVariable: string; resources: Resources; port: number; healthPort: number; checkIntervalSeconds: number };
  controllerManager: { members: string[]; securePort: number; flags: string[]; resources: Resources };
  prometheus: { name: string; image: string; imageVariable: string; portVariable: string; addressVariable: string; resources: Resources; port: number; uid: number; scrapeInterval: string };
}

export const topology: Topology = raw;

/** The local twin's apiserver members: apiserver-1 … apiserver-<replicas>, compose's container suffixes. */
export const apiserverMembers = (t: Topology): string[] => Array.from({ length: t.apiserver.replicas }, (_, i) => `${t.apiserver.service}-${i + 1}`);

/**
 * Files svc-certs writes into the shared PKI volume (cmd/certs: lib/signing certDirFileNames,
 * etcdPkiFileNames and etcdMemberFile — kubeadm's etcd layout, one directory per member).
 */
export function pkiFiles(t: Topology, dir: string = t.pkiDir) {
  const f = (name: string): string => path.posix.join(dir, name);
  const member = (kind: 'server' | 'peer', ext: 'crt' | 'key') => (m: string): string => f(`etcd/${m}/${kind}.${ext}`);
  return {
    caCert: f('ca.crt'),
    caKey: f('ca.key'),
    servingCert: f('apiserver.crt'),
    servingKey: f('apiserver.key'),
    saKey: f('sa.key'),
    saPub: f('sa.pub'),
    monitoringCert: f('monitoring.crt'),
    monitoringKey: f('monitoring.key'),
    controllerManagerKubeconfig: f('controller-manager.kubeconfig'),
    adminKubeconfig: f('admin.kubeconfig'),
    etcdCaCert: f('etcd/ca.crt'),
    etcdServerCert: member('server', 'crt'),
    etcdServerKey: member('server', 'key'),
    etcdPeerCert: member('peer', 'crt'),
    etcdPeerKey: member('peer', 'key'),
    etcdHealthcheckClientCert: f('etcd/healthcheck-client.crt'),
    etcdHealthcheckClientKey: f('etcd/healthcheck-client.key'),
    apiserverEtcdClientCert: f('apiserver-etcd-client.crt'),
    apiserverEtcdClientKey: f('apiserver-etcd-client.key'),
  };
}

export type PkiFiles = ReturnType<typeof pkiFiles>;

/**
 * How members reach each other: compose by service name (Docker's DNS), the local twin
 * (deploy/cluster) by each member's address on its bridge or loopback.
 */
export type HostOf = (member: string) => string;
export const byName: HostOf = (member) => member;

// Client and peer traffic is TLS with client certificates (kubeadm's etcd); only the metrics
// listener (--listen-metrics-urls: /metrics and /health) is plain HTTP.
export const etcdClientUrl = (t: Topology, member: string, host: HostOf = byName): string => `https://${host(member)}:${t.etcd.clientPort}`;
export const etcdPeerUrl = (t: Topology, member: string, host: HostOf = byName): string => `https://${host(member)}:${t.etcd.peerPort}`;
export const etcdMetricsUrl = (t: Topology, member: string, host: HostOf = byName): string => `http://${host(member)}:${t.etcd.metricsPort}`;
export const etcdServers = (t: Topology, host: HostOf = byName): string => t.etcd.members.map((m) => etcdClientUrl(t, m, host)).join(',');
export const controlPlaneEndpoint = (t: Topology, host: HostOf = byName): string => `${host(t.loadBalancer.name)}:${t.loadBalancer.port}`;
