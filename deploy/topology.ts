// The cluster's one description (deploy/topology.json) as a typed value, plus the facts every
// renderer derives from it (URLs, file paths in the shared PKI volume), so that no renderer
// spells a member list, port or path on its own.
import * as path from 'node:path';
import raw from './topology.json';

export interface Topology {
  image: { name: string; dockerfile: string; uid: number; gid: number };
  pkiDir: string;
  pkiInit: { name: string };
  etcd: { image: string; members: string[]; clientPort: number; peerPort: number; metricsPort: number; clusterToken: string; flags: string[] };
  apiserver: { members: string[]; securePort: number; flags: string[]; stopGracePeriod: string };
  loadBalancer: { name: string; image: string; port: number; healthPort: number; checkIntervalSeconds: number };
  controllerManager: { members: string[]; securePort: number; flags: string[] };
  prometheus: { name: string; image: string; port: number; uid: number; scrapeInterval: string };
}

export const topology: Topology = raw;

/** Files svc-certs writes into the shared PKI volume (cmd/certs, lib/signing certDirFileNames). */
export function pkiFiles(t: Topology) {
  const f = (name: string): string => path.posix.join(t.pkiDir, name);
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
  };
}

export const etcdClientUrl = (t: Topology, member: string): string => `http://${member}:${t.etcd.clientPort}`;
export const etcdPeerUrl = (t: Topology, member: string): string => `http://${member}:${t.etcd.peerPort}`;
export const etcdServers = (t: Topology): string => t.etcd.members.map((m) => etcdClientUrl(t, m)).join(',');
export const controlPlaneEndpoint = (t: Topology): string => `${t.loadBalancer.name}:${t.loadBalancer.port}`;
