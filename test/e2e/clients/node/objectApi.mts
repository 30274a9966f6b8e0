// client-node's generic KubernetesObjectApi, which takes apiVersion from the object (so it works
// with either naming profile). argv: kubeconfig, namespace, group domain (svc.io or k8s.io), CSR PEM file.
import { readFileSync } from 'node:fs';
import * as k8s from '@kubernetes/client-node';
import { kubeConfig, runSteps } from './common.mts';

const kc = kubeConfig();
const [namespace, domain, csrFile] = process.argv.slice(3);
const signerDomain = domain === 'k8s.io' ? 'kubernetes.io' : domain;
const signer = domain === 'k8s.io' ? 'kube-apiserver-client' : 'svc-apiserver-client';
const api = k8s.KubernetesObjectApi.makeApiClient(kc);
const csr = {
  apiVersion: `certificates.${domain}/v1`,
  kind: 'CertificateSigningRequest',
  metadata: { name: `${namespace}-generic` },
  spec: { request: Buffer.from(readFileSync(csrFile, 'utf8')).toString('base64'), signerName: `${signerDomain}/${signer}`, usages: ['client auth'] },
};
const lease = { apiVersion: `coordination.${domain}/v1`, kind: 'Lease', metadata: { name: 'generic', namespace }, spec: { holderIdentity: 'x' } };

await runSteps([
  ['create Namespace', async () => (await api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } })).metadata?.name],
  ['create CertificateSigningRequest', async () => ((await api.create(csr)) as k8s.V1CertificateSigningRequest).metadata?.uid !== undefined],
  ['read CertificateSigningRequest', async () => ((await api.read({ apiVersion: csr.apiVersion, kind: csr.kind, metadata: { name: csr.metadata.name } })) as k8s.V1CertificateSigningRequest).spec.signerName],
  ['create Lease', async () => ((await api.create(lease)) as k8s.V1Lease).spec?.holderIdentity],
  ['patch Lease (merge)', async () => {
    const r = await api.patch({ ...lease, spec: { holderIdentity: 'y' } }, undefined, undefined, undefined, undefined, k8s.PatchStrategy.MergePatch);
    return (r as k8s.V1Lease).spec?.holderIdentity;
  }],
  ['list Lease', async () => (await api.list(lease.apiVersion, lease.kind, namespace)).items.map((i) => i.metadata?.name)],
  ['delete Lease', async () => {
    await api.delete({ apiVersion: lease.apiVersion, kind: lease.kind, metadata: { name: 'generic', namespace } });
    return true;
  }],
  ['delete CertificateSigningRequest', async () => {
    await api.delete({ apiVersion: csr.apiVersion, kind: csr.kind, metadata: { name: csr.metadata.name } });
    return true;
  }],
]);
