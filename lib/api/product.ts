// Every identifier that carries the product word lives here (DESIGN.md §2.13).
// Nothing else in the code base spells "svc.io", "svclet" or the process names.

export const productDomain = 'svc.io';

/** Group names of the API groups served. The core group is "". */
export const groups = {
  certificates: `certificates.${productDomain}`,
  authentication: `authentication.${productDomain}`,
  authorization: `authorization.${productDomain}`,
  rbac: `rbac.authorization.${productDomain}`,
  coordination: `coordination.${productDomain}`,
  admissionregistration: `admissionregistration.${productDomain}`,
  meta: `meta.${productDomain}`,
  apidiscovery: `apidiscovery.${productDomain}`,
  audit: `audit.${productDomain}`,
} as const;

export const signerNames = {
  apiserverClient: `${productDomain}/svc-apiserver-client`,
  apiserverClientSvclet: `${productDomain}/svc-apiserver-client-svclet`,
  svcletServing: `${productDomain}/svclet-serving`,
  legacyUnknown: `${productDomain}/legacy-unknown`,
} as const;

/** The node agent (upstream's kubelet) as messages name it, e.g. the auto-approver's condition messages. */
export const nodeAgentName = 'svclet';

export const processNames = {
  apiserver: 'svc-apiserver',
  controllerManager: 'svc-controller-manager',
  /** One-shot PKI writer for multi-replica deployments (kubeadm's `init phase certs` and `kubeconfig`). */
  certs: 'svc-certs',
} as const;

/** The controller manager's user name (its client certificate CN), as upstream's system:kube-controller-manager. */
export const controllerManagerUserName = `system:${processNames.controllerManager}`;

/** Markers of the RBAC bootstrap policy (upstream kubernetes.io/bootstrapping, rbac.authorization.kubernetes.io/…). */
export const rbacPolicyKeys = {
  bootstrappingLabel: `${productDomain}/bootstrapping`,
  autoupdateAnnotation: `${groups.rbac}/autoupdate`,
  aggregateToAdmin: `${groups.rbac}/aggregate-to-admin`,
  aggregateToEdit: `${groups.rbac}/aggregate-to-edit`,
  aggregateToView: `${groups.rbac}/aggregate-to-view`,
} as const;

/** Labels the server sets (upstream kubernetes.io/metadata.name: every namespace carries its name). */
export const labels = {
  metadataName: `${productDomain}/metadata.name`,
} as const;

export const annotations = {
  initialEventsEnd: `${productDomain}/initial-events-end`,
  enforceMountableSecrets: `${productDomain}/enforce-mountable-secrets`,
  deprecated: `${productDomain}/deprecated`,
} as const;

/** Protobuf media type and the 4-byte magic prefix of the Protobuf envelope. */
export const protobufMediaType = `application/vnd.${productDomain.split('.')[0]}.protobuf`;

/**
 * Content types also read as Protobuf request bodies: stock clients (kubectl) send the
 * upstream spelling (docs/design.md, "Naming profile for stock clients"). Not offered in negotiation or 415 lists.
 */
export const protobufMediaTypeAliases = ['application/vnd.kubernetes.protobuf'] as const;

/**
 * The meta group as stock kubectl names it when asking for Tables (`as=Table;g=meta.k8s.io`):
 * answered beside groups.meta (docs/design.md, "Naming profile for stock clients").
 */
export const stockClientMetaGroup = 'meta.k8s.io';

/**
 * kubectl's client-side apply record and the manager name kubectl applies under: stock client
 * spellings the server must read as they are (upstream's lastAppliedManager/Updater key on them).
 */
export const stockClientApply = {
  lastAppliedAnnotation: 'kubectl.kubernetes.io/last-applied-configuration',
  manager: 'kubectl',
} as const;

/** Namespaces the server creates at start-up. */
export const systemNamespaces = ['default', 'svc-system', 'svc-public', 'svc-node-lease'] as const;

/** Namespaces that may never be deleted. */
export const immortalNamespaces = ['default', 'svc-system', 'svc-public'] as const;

/** Finalizer a Namespace carries until the namespace controller has emptied it. */
export const namespaceFinalizer = 'svc';

/**
 * OpenAPI vendor extensions. Stock clients (kubectl) look these up by their upstream
 * spelling, so the published documents use it; see docs/design.md "naming".
 */
export const openapiExtensions = {
  groupVersionKind: 'x-kubernetes-group-version-kind',
  action: 'x-kubernetes-action',
  listType: 'x-kubernetes-list-type',
  listMapKeys: 'x-kubernetes-list-map-keys',
  mapType: 'x-kubernetes-map-type',
  patchStrategy: 'x-kubernetes-patch-strategy',
  patchMergeKey: 'x-kubernetes-patch-merge-key',
} as const;

/** Definition-name prefix of OpenAPI schemas (reversed package path). */
export const openapiDefinitionPrefix = {
  api: 'io.svc.api',
  meta: 'io.svc.apimachinery.pkg.apis.meta.v1',
} as const;

/** Upstream's kubernetes_feature_enabled gauge (component-base metrics/prometheus/feature), product word substituted. */
export const featureEnabledMetric = {
  name: 'svc_feature_enabled',
  help: 'This metric records the data about the stage and enablement of a svc feature.',
} as const;

/** Version reported by /version: the upstream minor this server follows. */
export const serverVersion = { major: '1', minor: '32', gitVersion: 'v1.32.0-svc.0' } as const;
