// svc-certs: writes the cluster PKI once into --cert-dir and exits, for deployments where several
// apiserver replicas share one CA, serving certificate and ServiceAccount key (deploy/, the
// one-shot init service). The single-process path (`svc-apiserver --cert-dir`) stays as it is.
// Mirrors kubeadm's `init phase certs all` + `init phase kubeconfig`: same files as the apiserver
// generates, the serving certificate valid for --apiserver-cert-extra-sans too, kubeconfigs that
// point at --control-plane-endpoint, a client certificate for Prometheus, and with --etcd-members
// the etcd PKI (etcdPki.ts).
import * as path from 'node:path';
import { controllerManagerUserName, processNames } from '../../lib/api';
import { ensureServiceAccountKey } from '../../lib/auth/serviceaccount';
import { ensureCertDir, writeKubeconfig } from '../../lib/signing';
import { commandLineOptions, helpRequested, parseFlags } from '../flagSet';
import { ensureEtcdPki } from './etcdPki';
import { ensureMonitoringCert } from './monitoringCert';
import { certsFlags, CertsOptions, toCertsOptions } from './options';

const program = processNames.certs;

export const kubeconfigFileNames = { admin: 'admin.kubeconfig', controllerManager: 'controller-manager.kubeconfig' } as const;

export interface WrittenPki {
  /**
   * Which pairs were (re)generated: 'ca', 'apiserver', 'admin', 'controller-manager', 'sa',
   * 'monitoring', and kubeadm's names for the etcd ones ('etcd-ca', 'etcd-server/<member>', …).
   */
  generated: string[];
  kubeconfigs: string[];
}

export async function writeClusterPki(opts: CertsOptions): Promise<WrittenPki> {
  const pki = await ensureCertDir(opts.certDir, { extraSANs: opts.extraSANs });
  const sa = await ensureServiceAccountKey(opts.certDir);
  const monitoring = await ensureMonitoringCert(opts.certDir, pki.caCertFile, pki.caKeyFile);
  // As kubeadm with external etcd: no members named, no etcd PKI.
  const etcd = opts.etcdMembers.length
    ? await ensureEtcdPki(opts.certDir, { members: opts.etcdMembers, serverCertExtraSANs: opts.etcdServerCertExtraSANs, peerCertExtraSANs: opts.etcdPeerCertExtraSANs })
    : [];
  const server = `https://${opts.controlPlaneEndpoint}`;
  const admin = path.join(opts.kubeconfigDir, kubeconfigFileNames.admin);
  const controllerManager = path.join(opts.kubeconfigDir, kubeconfigFileNames.controllerManager);
  // Rewritten every run: they embed the current certificates and the current endpoint.
  await writeKubeconfig(admin, { server, caFile: pki.caCertFile, clientCertFile: pki.adminCertFile, clientKeyFile: pki.adminKeyFile, user: 'admin' });
  await writeKubeconfig(controllerManager, {
    server,
    caFile: pki.caCertFile,
    clientCertFile: pki.controllerManagerCertFile,
    clientKeyFile: pki.controllerManagerKeyFile,
    user: controllerManagerUserName,
  });
  return {
    generated: [...pki.generated, ...(sa.generated ? ['sa'] : []), ...(monitoring.generated ? ['monitoring'] : []), ...etcd],
    kubeconfigs: [admin, controllerManager],
  };
}

export async function main(argv: string[]): Promise<void> {
  const about = `${program} writes the cluster PKI (CA, apiserver serving certificate, client certificates, ServiceAccount key, and with --etcd-members the etcd PKI) and kubeconfigs once, then exits.`;
  const opts = commandLineOptions<CertsOptions>(program, about, certsFlags, () => {
    const { values, help } = parseFlags(argv, certsFlags);
    return help ? helpRequested : toCertsOptions(values);
  });
  if (!opts) return;
  try {
    const written = await writeClusterPki(opts);
    process.stdout.write(`${JSON.stringify({ certDir: path.resolve(opts.certDir), generated: written.generated, kubeconfigs: written.kubeconfigs })}\n`);
  } catch (e) {
    process.stderr.write(`Error: ${(e as Error).message}\n`);
    process.exit(1);
  }
}
