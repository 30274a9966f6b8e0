// client-node's typed APIs, one call per step, as a CI suite would use them.
// argv: kubeconfig, namespace, file holding a PKCS#10 PEM for a CSR.
import { readFileSync } from 'node:fs';
import * as k8s from '@kubernetes/client-node';
import { kubeConfig, runSteps } from './common.mts';

const kc = kubeConfig();
const namespace = process.argv[3];
const csrPem = readFileSync(process.argv[4], 'utf8');
const core = kc.makeApiClient(k8s.CoreV1Api);
const certificates = kc.makeApiClient(k8s.CertificatesV1Api);
const rbac = kc.makeApiClient(k8s.RbacAuthorizationV1Api);
const coordination = kc.makeApiClient(k8s.CoordinationV1Api);
const authorization = kc.makeApiClient(k8s.AuthorizationV1Api);
const authentication = kc.makeApiClient(k8s.AuthenticationV1Api);
const csrName = `${namespace}-csr`;

await runSteps([
  ['CoreV1Api.createNamespace', async () => (await core.createNamespace({ body: { metadata: { name: namespace } } })).metadata?.name],
  ['CoreV1Api.createNamespacedServiceAccount', async () => (await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name: 'bot' } } })).metadata?.name],
  ['CoreV1Api.listNamespacedServiceAccount', async () => (await core.listNamespacedServiceAccount({ namespace })).items.map((s) => s.metadata?.name)],
  ['CoreV1Api.createNamespacedServiceAccountToken', async () => {
    const r = await core.createNamespacedServiceAccountToken({ name: 'bot', namespace, body: { spec: { audiences: [] } } });
    return (r.status?.token ?? '').split('.').length;
  }],
  ['CoreV1Api.createNamespacedConfigMap', async () => (await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'settings' }, data: { a: '1' } } })).data],
  ['CoreV1Api.readNamespacedConfigMap', async () => (await core.readNamespacedConfigMap({ name: 'settings', namespace })).data],
  ['CertificatesV1Api.createCertificateSigningRequest', async () => {
    const body: k8s.V1CertificateSigningRequest = {
      metadata: { name: csrName },
      spec: { request: Buffer.from(csrPem).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] },
    };
    return (await certificates.createCertificateSigningRequest({ body })).spec.signerName;
  }],
  ['CertificatesV1Api.replaceCertificateSigningRequestApproval', async () => {
    const csr = await certificates.readCertificateSigningRequest({ name: csrName });
    csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'E2E', message: 'approved by client-node' }] };
    const r = await certificates.replaceCertificateSigningRequestApproval({ name: csrName, body: csr });
    return r.status?.conditions?.map((c) => c.type);
  }],
  ['CertificatesV1Api.listCertificateSigningRequest', async () => (await certificates.listCertificateSigningRequest()).items.some((c) => c.metadata?.name === csrName)],
  ['RbacAuthorizationV1Api.createNamespacedRole', async () => {
    const body: k8s.V1Role = { metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] };
    return (await rbac.createNamespacedRole({ namespace, body })).metadata?.name;
  }],
  ['RbacAuthorizationV1Api.createNamespacedRoleBinding', async () => {
    const body: k8s.V1RoleBinding = {
      metadata: { name: 'reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace }],
    };
    return (await rbac.createNamespacedRoleBinding({ namespace, body })).roleRef.name;
  }],
  ['RbacAuthorizationV1Api.createClusterRole', async () => {
    const body: k8s.V1ClusterRole = { metadata: { name: `${namespace}-lease-reader` }, rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get'] }] };
    return (await rbac.createClusterRole({ body })).metadata?.name;
  }],
  ['RbacAuthorizationV1Api.listClusterRole', async () => (await rbac.listClusterRole()).items.some((r) => r.metadata?.name === 'cluster-admin')],
  ['CoordinationV1Api.createNamespacedLease', async () => {
    const body: k8s.V1Lease = { metadata: { name: 'leader' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } };
    return (await coordination.createNamespacedLease({ namespace, body })).spec?.holderIdentity;
  }],
  ['CoordinationV1Api.replaceNamespacedLease', async () => {
    const lease = await coordination.readNamespacedLease({ name: 'leader', namespace });
    lease.spec = { ...lease.spec, holderIdentity: 'b', renewTime: new Date() as unknown as k8s.V1MicroTime };
    return (await coordination.replaceNamespacedLease({ name: 'leader', namespace, body: lease })).spec?.holderIdentity;
  }],
  ['AuthorizationV1Api.createSelfSubjectAccessReview', async () => {
    const r = await authorization.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { verb: 'create', resource: 'serviceaccounts', namespace } } } });
    return r.status?.allowed;
  }],
  ['AuthorizationV1Api.createSubjectAccessReview', async () => {
    const r = await authorization.createSubjectAccessReview({
      body: { spec: { user: `system:serviceaccount:${namespace}:bot`, resourceAttributes: { verb: 'list', resource: 'configmaps', namespace } } },
    });
    return r.status?.allowed;
  }],
  ['AuthenticationV1Api.createSelfSubjectReview', async () => (await authentication.createSelfSubjectReview({ body: {} })).status?.userInfo?.username],
]);
