// svc-certs's flags, named as kubeadm's `init phase certs` / `init phase kubeconfig` flags. kubeadm
// takes the etcd members' names and SANs from its configuration file (nodeRegistration.name,
// localAPIEndpoint.advertiseAddress, etcd.local.serverCertSANs / peerCertSANs); svc-certs has no
// configuration file and writes every member at once, so these are flags in the style of
// --apiserver-cert-extra-sans.
import { isIP } from 'node:net';
import { naming } from '../../lib/api/product';
import { FlagError, FlagSpec, FlagValues } from '../flagSet';
import { apiNamingFlagHelp } from '../namingEntry';
import type { EtcdMember } from './etcdPki';

export const certsFlags: readonly FlagSpec[] = [
  { name: 'cert-dir', type: 'string', default: 'data/pki', help: 'The path where to save and store the certificates.' },
  {
    name: 'apiserver-cert-extra-sans',
    type: 'stringSlice',
    default: [],
    help: 'Optional extra Subject Alternative Names (SANs) to use for the API Server serving certificate. Can be both IP addresses and DNS names.',
  },
  {
    name: 'control-plane-endpoint',
    type: 'string',
    default: '127.0.0.1:6443',
    help: 'Specify a stable IP address or DNS name for the control plane (host:port); the kubeconfigs written point at it.',
  },
  { name: 'kubeconfig-dir', type: 'string', default: '', help: 'The path where to save the kubeconfig files (default: --cert-dir).' },
  { name: 'api-naming', type: 'string', default: 'svc', help: `${apiNamingFlagHelp} Give the apiservers' value.` },
  {
    name: 'etcd-members',
    type: 'stringSlice',
    default: [],
    help: 'The local etcd members, each name or name=address (a DNS name or IP other members and clients reach it at); writes the etcd PKI (etcd/ca, etcd/<name>/server and peer, etcd/healthcheck-client, apiserver-etcd-client). None: etcd is external and no etcd PKI is written.',
  },
  { name: 'etcd-server-cert-extra-sans', type: 'stringSlice', default: [], help: "Optional extra Subject Alternative Names for every etcd member's serving certificate (etcd.local.serverCertSANs)." },
  { name: 'etcd-peer-cert-extra-sans', type: 'stringSlice', default: [], help: "Optional extra Subject Alternative Names for every etcd member's peer certificate (etcd.local.peerCertSANs)." },
];

export interface CertsOptions {
  certDir: string;
  extraSANs: string[];
  /** host:port of the load balancer (or the single apiserver). */
  controlPlaneEndpoint: string;
  kubeconfigDir: string;
  etcdMembers: EtcdMember[];
  etcdServerCertExtraSANs: string[];
  etcdPeerCertExtraSANs: string[];
}

/** A DNS-1123 subdomain: also safe as the member's directory name under etcd/. */
const memberName = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dnsOrIP = (s: string): boolean => isIP(s) !== 0 || memberName.test(s);

function toEtcdMembers(items: string[]): EtcdMember[] {
  const seen = new Set<string>();
  return items.map((item) => {
    const eq = item.indexOf('=');
    const name = eq < 0 ? item : item.slice(0, eq);
    const address = eq < 0 ? '' : item.slice(eq + 1);
    if (!memberName.test(name) || name.length > 253) throw new FlagError(`--etcd-members: invalid member name ${JSON.stringify(name)} (want a lowercase DNS name)`);
    if (eq >= 0 && !dnsOrIP(address)) throw new FlagError(`--etcd-members: invalid address ${JSON.stringify(address)} for ${name} (want a DNS name or an IP)`);
    if (seen.has(name)) throw new FlagError(`--etcd-members: ${name} is listed twice`);
    seen.add(name);
    return { name, addresses: address ? [address] : [] };
  });
}

function sans(v: FlagValues, flag: string): string[] {
  const out = (v[flag] as string[]).filter((s) => s !== '');
  const bad = out.find((s) => !dnsOrIP(s.toLowerCase()) && !/^\*\./.test(s));
  if (bad !== undefined) throw new FlagError(`--${flag}: invalid value ${JSON.stringify(bad)} (want a DNS name or an IP)`);
  return out;
}

export function toCertsOptions(v: FlagValues): CertsOptions {
  // The entry selected the profile from argv before lib/api loaded; a mismatch is a wiring bug.
  if (String(v['api-naming']) !== naming.name) throw new FlagError(`invalid --api-naming ${JSON.stringify(v['api-naming'])}: this process writes the "${naming.name}" naming`);
  const certDir = String(v['cert-dir']);
  if (!certDir) throw new FlagError('--cert-dir must not be empty');
  const endpoint = String(v['control-plane-endpoint']);
  if (!/^(\[[0-9a-fA-F:]+\]|[^:/\s]+):\d{1,5}$/.test(endpoint)) {
    throw new FlagError(`--control-plane-endpoint: invalid value ${JSON.stringify(endpoint)} (want host:port)`);
  }
  return {
    certDir,
    extraSANs: (v['apiserver-cert-extra-sans'] as string[]).filter((s) => s !== ''),
    controlPlaneEndpoint: endpoint,
    kubeconfigDir: String(v['kubeconfig-dir']) || certDir,
    etcdMembers: toEtcdMembers((v['etcd-members'] as string[]).filter((s) => s !== '')),
    etcdServerCertExtraSANs: sans(v, 'etcd-server-cert-extra-sans'),
    etcdPeerCertExtraSANs: sans(v, 'etcd-peer-cert-extra-sans'),
  };
}
