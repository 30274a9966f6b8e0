// The etcd PKI, as kubeadm's `init phase certs etcd-ca | etcd-server | etcd-peer |
// etcd-healthcheck-client | apiserver-etcd-client` write it: its own CA (etcd/ca.crt, CN etcd-ca),
// per member a serving and a peer certificate (CN the member's name; SANs its name, localhost,
// its addresses, 127.0.0.1 and ::1; server and client auth, which etcd's peer and client listeners
// both need), a client certificate for health checks and tools (etcd/healthcheck-client) and the
// apiserver's client certificate (apiserver-etcd-client, in --cert-dir itself as in kubeadm).
// kubeadm writes one member per node into etcd/server.*; one shared volume holds every member
// here, so each member's pair sits in etcd/<member>/.
import * as path from 'node:path';
import { naming } from '../../lib/api/product';
import { ekuOid, ensureCA, ensureLeaves, keyEnciphermentFor, splitSANs, withDirLock, type KeyAlgorithm, type LeafSpec } from '../../lib/signing';

export const etcdCACommonName = 'etcd-ca';
/** kubeadm's kube-etcd-healthcheck-client and kube-apiserver-etcd-client, in the naming profile's spelling. */
export const etcdHealthcheckClientCommonName = `${naming.namespacePrefix}-etcd-healthcheck-client`;
export const apiserverEtcdClientCommonName = `${naming.apiserverComponent}-etcd-client`;

export const etcdPkiFileNames = {
  caCert: 'etcd/ca.crt',
  caKey: 'etcd/ca.key',
  healthcheckClientCert: 'etcd/healthcheck-client.crt',
  healthcheckClientKey: 'etcd/healthcheck-client.key',
  apiserverEtcdClientCert: 'apiserver-etcd-client.crt',
  apiserverEtcdClientKey: 'apiserver-etcd-client.key',
} as const;

/** A member's serving (`server`) or peer (`peer`) pair, relative to --cert-dir. */
export const etcdMemberFile = (member: string, kind: 'server' | 'peer', ext: 'crt' | 'key'): string => `etcd/${member}/${kind}.${ext}`;

export interface EtcdMember {
  /** kubeadm's node name: the certificates' CN and first DNS SAN. */
  name: string;
  /** Where peers and clients reach it (kubeadm's advertise address): DNS names or IPs. */
  addresses: string[];
}

export interface EtcdPkiOptions {
  members: readonly EtcdMember[];
  /** kubeadm's etcd.local.serverCertSANs / peerCertSANs: added to every member's pair. */
  serverCertExtraSANs?: readonly string[];
  peerCertExtraSANs?: readonly string[];
  now?: Date;
  keyAlgorithm?: KeyAlgorithm;
}

/** Creates or completes the etcd PKI under certDir; the kubeadm names of what it (re)issued. */
export async function ensureEtcdPki(certDir: string, opts: EtcdPkiOptions): Promise<string[]> {
  const now = opts.now ?? new Date();
  const alg = opts.keyAlgorithm ?? 'ecdsa-p256';
  const at = (f: string): string => path.join(certDir, f);
  const f = etcdPkiFileNames;
  return withDirLock(certDir, async () => {
    const { ca, created } = await ensureCA(at(f.caCert), at(f.caKey), etcdCACommonName, now, alg);
    const keyEnc = keyEnciphermentFor(alg);
    const both = { usages: ['digital signature', ...keyEnc, 'server auth', 'client auth'], ekus: [ekuOid.serverAuth, ekuOid.clientAuth] };
    const client = { usages: ['digital signature', ...keyEnc, 'client auth'], ekus: [ekuOid.clientAuth], dnsNames: [], ipAddresses: [] };
    const memberLeaf = (m: EtcdMember, kind: 'server' | 'peer', extra: readonly string[]): LeafSpec => ({
      name: `etcd-${kind}/${m.name}`,
      certFile: at(etcdMemberFile(m.name, kind, 'crt')),
      keyFile: at(etcdMemberFile(m.name, kind, 'key')),
      subject: { commonName: m.name },
      ...memberSANs(m, extra),
      ...both,
    });
    const leaves: LeafSpec[] = [
      ...opts.members.flatMap((m) => [memberLeaf(m, 'server', opts.serverCertExtraSANs ?? []), memberLeaf(m, 'peer', opts.peerCertExtraSANs ?? [])]),
      { name: 'etcd-healthcheck-client', certFile: at(f.healthcheckClientCert), keyFile: at(f.healthcheckClientKey), subject: { commonName: etcdHealthcheckClientCommonName }, ...client },
      { name: 'apiserver-etcd-client', certFile: at(f.apiserverEtcdClientCert), keyFile: at(f.apiserverEtcdClientKey), subject: { commonName: apiserverEtcdClientCommonName }, ...client },
    ];
    return [...(created ? ['etcd-ca'] : []), ...(await ensureLeaves(leaves, ca, created, now, alg))];
  });
}

/** kubeadm's getAltNames: DNS [name, localhost], IPs [advertise address, 127.0.0.1, ::1], then the extra SANs. */
export function memberSANs(m: EtcdMember, extra: readonly string[]): { dnsNames: string[]; ipAddresses: string[] } {
  const own = splitSANs(m.addresses);
  const more = splitSANs(extra);
  const unique = (xs: string[]): string[] => [...new Set(xs)];
  return {
    dnsNames: unique([m.name, 'localhost', ...own.dnsNames, ...more.dnsNames]),
    ipAddresses: unique([...own.ipAddresses, '127.0.0.1', '::1', ...more.ipAddresses]),
  };
}
