// svc-certs's flags, named as kubeadm's `init phase certs` / `init phase kubeconfig` flags.
import { naming } from '../../lib/api/product';
import { FlagError, FlagSpec, FlagValues } from '../flagSet';
import { apiNamingFlagHelp } from '../namingEntry';

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
];

export interface CertsOptions {
  certDir: string;
  extraSANs: string[];
  /** host:port of the load balancer (or the single apiserver). */
  controlPlaneEndpoint: string;
  kubeconfigDir: string;
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
  };
}
