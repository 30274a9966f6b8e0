// Every product-word identifier, in both profiles: svc as the spec spells it, k8s as upstream does.
import type * as Product from '../product';

function productWith(profile: string): typeof Product {
  let p: typeof Product | undefined;
  jest.isolateModules(() => {
    (require('./selection') as typeof import('./selection')).selectNaming(profile);
    p = require('../product') as typeof Product;
  });
  return p!;
}

const svc = productWith('svc');
const k8s = productWith('k8s');

describe.each<[string, (p: typeof Product) => unknown, unknown, unknown]>([
  ['certificates group', (p) => p.groups.certificates, 'certificates.svc.io', 'certificates.k8s.io'],
  ['rbac group', (p) => p.groups.rbac, 'rbac.authorization.svc.io', 'rbac.authorization.k8s.io'],
  ['authentication group', (p) => p.groups.authentication, 'authentication.svc.io', 'authentication.k8s.io'],
  ['authorization group', (p) => p.groups.authorization, 'authorization.svc.io', 'authorization.k8s.io'],
  ['coordination group', (p) => p.groups.coordination, 'coordination.svc.io', 'coordination.k8s.io'],
  ['meta group (Tables)', (p) => p.groups.meta, 'meta.svc.io', 'meta.k8s.io'],
  ['aggregated discovery group', (p) => p.groups.apidiscovery, 'apidiscovery.svc.io', 'apidiscovery.k8s.io'],
  ['client signer', (p) => p.signerNames.apiserverClient, 'svc.io/svc-apiserver-client', 'kubernetes.io/kube-apiserver-client'],
  ['node client signer', (p) => p.signerNames.apiserverClientSvclet, 'svc.io/svc-apiserver-client-svclet', 'kubernetes.io/kube-apiserver-client-kubelet'],
  ['node serving signer', (p) => p.signerNames.svcletServing, 'svc.io/svclet-serving', 'kubernetes.io/kubelet-serving'],
  ['legacy signer', (p) => p.signerNames.legacyUnknown, 'svc.io/legacy-unknown', 'kubernetes.io/legacy-unknown'],
  ['bootstrapping label', (p) => p.rbacPolicyKeys.bootstrappingLabel, 'svc.io/bootstrapping', 'kubernetes.io/bootstrapping'],
  ['autoupdate annotation', (p) => p.rbacPolicyKeys.autoupdateAnnotation, 'rbac.authorization.svc.io/autoupdate', 'rbac.authorization.kubernetes.io/autoupdate'],
  ['aggregate-to-admin label', (p) => p.rbacPolicyKeys.aggregateToAdmin, 'rbac.authorization.svc.io/aggregate-to-admin', 'rbac.authorization.k8s.io/aggregate-to-admin'],
  ['metadata.name label', (p) => p.labels.metadataName, 'svc.io/metadata.name', 'kubernetes.io/metadata.name'],
  ['initial-events-end annotation', (p) => p.annotations.initialEventsEnd, 'svc.io/initial-events-end', 'k8s.io/initial-events-end'],
  ['mountable secrets annotation', (p) => p.annotations.enforceMountableSecrets, 'svc.io/enforce-mountable-secrets', 'kubernetes.io/enforce-mountable-secrets'],
  ['deprecated audit annotation', (p) => p.annotations.deprecated, 'svc.io/deprecated', 'k8s.io/deprecated'],
  ['policy failure annotation', (p) => p.annotations.policyValidationFailure, 'validation.policy.admission.svc.io/validation_failure', 'validation.policy.admission.k8s.io/validation_failure'],
  ['protobuf media type', (p) => p.protobufMediaType, 'application/vnd.svc.protobuf', 'application/vnd.kubernetes.protobuf'],
  ['protobuf aliases', (p) => p.protobufMediaTypeAliases, ['application/vnd.kubernetes.protobuf'], []],
  ['OpenAPI api prefix', (p) => p.openapiDefinitionPrefix.api, 'io.svc.api', 'io.k8s.api'],
  ['OpenAPI meta prefix', (p) => p.openapiDefinitionPrefix.meta, 'io.svc.apimachinery.pkg.apis.meta.v1', 'io.k8s.apimachinery.pkg.apis.meta.v1'],
  ['controller manager user', (p) => p.controllerManagerUserName, 'system:svc-controller-manager', 'system:kube-controller-manager'],
  ['system namespaces', (p) => p.systemNamespaces, ['default', 'svc-system', 'svc-public', 'svc-node-lease'], ['default', 'kube-system', 'kube-public', 'kube-node-lease']],
  ['namespace finalizer', (p) => p.namespaceFinalizer, 'svc', 'kubernetes'],
  ['feature metric', (p) => p.featureEnabledMetric.name, 'svc_feature_enabled', 'kubernetes_feature_enabled'],
  ['token private claim', (p) => p.serviceAccountClaim, 'svc.io', 'kubernetes.io'],
  ['token issuer (default audience)', (p) => p.defaultServiceAccountIssuer, 'https://svc.default.svc.cluster.local', 'https://kubernetes.default.svc.cluster.local'],
  ['process names stay the product binaries', (p) => p.processNames.apiserver, 'svc-apiserver', 'svc-apiserver'],
])('%s', (_name, get, wantSvc, wantK8s) => {
  it('svc', () => expect(get(svc)).toEqual(wantSvc));
  it('k8s', () => expect(get(k8s)).toEqual(wantK8s));
});
