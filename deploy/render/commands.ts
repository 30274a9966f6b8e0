// The command line of every member, built once for both places the topology runs: compose
// (members reached by service name, listening on every address, the PKI volume) and the local
// twin `make cluster` (members reached by their own address, files under data/cluster). Only a
// Placement differs between the two, so their flags cannot drift apart.
import { apiserverMembers, byName, controlPlaneEndpoint, etcdClientUrl, etcdMetricsUrl, etcdPeerUrl, etcdServers, pkiFiles, type HostOf, type PkiFiles, type Topology } from '../topology';

export type Program = 'etcd' | 'svc-apiserver' | 'svc-controller-manager' | 'svc-certs';

export interface Placement {
  /** The address or name other members use to reach a member. */
  host: HostOf;
  /** The address a member binds to. */
  listen: HostOf;
  pki: PkiFiles;
  etcdDataDir: (member: string) => string;
  /** The argv prefix that runs a program. */
  program: (name: Program) => string[];
  /** Prometheus's configuration file and storage directory. */
  prometheus: { configFile: string; storageDir: string };
  /**
   * dockerDns: the apiserver replicas are one compose service, any number of containers found
   * through Docker's embedded DNS by the service name (`--scale`); otherwise named members at
   * fixed addresses (the local twin).
   */
  dockerDns: boolean;
}

export function composePlacement(t: Topology): Placement {
  return {
    host: byName,
    listen: () => '0.0.0.0',
    pki: pkiFiles(t),
    etcdDataDir: () => '/var/lib/etcd',
    program: (name) => (name === 'etcd' ? ['/usr/local/bin/etcd'] : [name]),
    prometheus: { configFile: '/etc/prometheus/prometheus.yml', storageDir: '/prometheus' },
    dockerDns: true,
  };
}

/**
 * kubeadm's etcd: client and peer URLs on TLS with client certificates required on both, the
 * member's own serving and peer pair from etcd/<member>/, and a plain-HTTP metrics listener
 * (/metrics and /health only) for Prometheus and the health checks.
 */
export function etcdCommand(t: Topology, member: string, p: Placement): string[] {
  const initialCluster = t.etcd.members.map((m) => `${m}=${etcdPeerUrl(t, m, p.host)}`).join(',');
  const f = p.pki;
  return [
    ...p.program('etcd'),
    `--name=${member}`,
    `--data-dir=${p.etcdDataDir(member)}`,
    `--listen-client-urls=${etcdClientUrl(t, member, p.listen)}`,
    `--advertise-client-urls=${etcdClientUrl(t, member, p.host)}`,
    `--listen-peer-urls=${etcdPeerUrl(t, member, p.listen)}`,
    `--initial-advertise-peer-urls=${etcdPeerUrl(t, member, p.host)}`,
    `--listen-metrics-urls=${etcdMetricsUrl(t, member, p.listen)}`,
    `--initial-cluster=${initialCluster}`,
    '--initial-cluster-state=new',
    `--initial-cluster-token=${t.etcd.clusterToken}`,
    `--cert-file=${f.etcdServerCert(member)}`,
    `--key-file=${f.etcdServerKey(member)}`,
    `--trusted-ca-file=${f.etcdCaCert}`,
    '--client-cert-auth=true',
    `--peer-cert-file=${f.etcdPeerCert(member)}`,
    `--peer-key-file=${f.etcdPeerKey(member)}`,
    `--peer-trusted-ca-file=${f.etcdCaCert}`,
    '--peer-client-cert-auth=true',
    ...t.etcd.flags,
  ];
}

/**
 * svc-certs, once: one serving certificate valid for the load balancer and every replica (under
 * compose the service name, which Docker's DNS resolves to each of them, so a replica added by
 * `--scale` is covered too), and the etcd PKI with each member's pairs valid for the name or
 * address the others dial.
 */
export function certsCommand(t: Topology, p: Placement, certDir: string): string[] {
  const sans = [t.loadBalancer.name, ...(p.dockerDns ? [t.apiserver.service] : apiserverMembers(t))].map(p.host);
  const etcdMembers = t.etcd.members.map((m) => (p.host(m) === m ? m : `${m}=${p.host(m)}`));
  return [
    ...p.program('svc-certs'),
    `--cert-dir=${certDir}`,
    `--apiserver-cert-extra-sans=${[...sans, 'localhost'].join(',')}`,
    `--control-plane-endpoint=${controlPlaneEndpoint(t, p.host)}`,
    `--etcd-members=${etcdMembers.join(',')}`,
  ];
}

/** etcdctl's connection flags as an etcd client (health checks, snapshots): the healthcheck-client pair. */
export function etcdctlTlsFlags(f: PkiFiles): string[] {
  return [`--cacert=${f.etcdCaCert}`, `--cert=${f.etcdHealthcheckClientCert}`, `--key=${f.etcdHealthcheckClientKey}`];
}

export function apiserverCommand(t: Topology, member: string, p: Placement): string[] {
  const f = p.pki;
  return [
    ...p.program('svc-apiserver'),
    `--etcd-servers=${etcdServers(t, p.host)}`,
    `--etcd-cafile=${f.etcdCaCert}`,
    `--etcd-certfile=${f.apiserverEtcdClientCert}`,
    `--etcd-keyfile=${f.apiserverEtcdClientKey}`,
    `--bind-address=${p.listen(member)}`,
    `--secure-port=${t.apiserver.securePort}`,
    // Everything from the shared read-only PKI: nothing is generated per replica, so all
    // replicas present the same serving certificate and verify the same ServiceAccount tokens.
    `--tls-cert-file=${f.servingCert}`,
    `--tls-private-key-file=${f.servingKey}`,
    `--client-ca-file=${f.caCert}`,
    `--service-account-signing-key-file=${f.saKey}`,
    `--service-account-key-file=${f.saPub}`,
    ...t.apiserver.flags,
  ];
}

export function controllerManagerCommand(t: Topology, member: string, p: Placement): string[] {
  const f = p.pki;
  return [
    ...p.program('svc-controller-manager'),
    `--kubeconfig=${f.controllerManagerKubeconfig}`,
    `--cluster-signing-cert-file=${f.caCert}`,
    `--cluster-signing-key-file=${f.caKey}`,
    `--bind-address=${p.listen(member)}`,
    `--secure-port=${t.controllerManager.securePort}`,
    ...t.controllerManager.flags,
  ];
}

/** Prometheus's flags (the image's entry point is the binary itself). */
export function prometheusArgs(t: Topology, p: Placement): string[] {
  return [
    `--config.file=${p.prometheus.configFile}`,
    `--storage.tsdb.path=${p.prometheus.storageDir}`,
    `--web.listen-address=${p.listen(t.prometheus.name)}:${t.prometheus.port}`,
  ];
}
