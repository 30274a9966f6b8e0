// Every identifier that carries the product word lives here (DESIGN.md §2.13), derived from the
// one naming profile in force (lib/api/naming: svc, or k8s for stock clients). Nothing else in
// the code base spells "svc.io", "svclet" or the process names, nor branches on the profile.
import { activeNaming } from './naming/selection';

export type { NamingProfile, NamingProfileName } from './naming/profiles';

/** The profile these names were derived from (fixed once lib/api loaded). */
export const naming = activeNaming();

/** Suffix of the API group names (svc.io; k8s.io). */
export const productDomain = naming.groupDomain;

/** Domain of labels, annotations and signer names (svc.io; kubernetes.io, as upstream spells them). */
export const labelDomain = naming.labelDomain;

/** Group names of the API groups served. The core group is "". */
export const groups = {
  certificates: `certificates.${productDomain}`,
  authentication: `authentication.${productDomain}`,
  authorization: `authorization.${productDomain}`,
  rbac: `rbac.authorization.${productDomain}`,
  coordination: `coordination.${productDomain}`,
  admissionregistration: `admissionregistration.${productDomain}`,
  apiextensions: `apiextensions.${productDomain}`,
  meta: `meta.${productDomain}`,
  apidiscovery: `apidiscovery.${productDomain}`,
  audit: `audit.${productDomain}`,
} as const;

/** The node agent (upstream's kubelet) as messages name it, e.g. the auto-approver's condition messages. */
export const nodeAgentName = naming.nodeAgent;

export const signerNames = {
  apiserverClient: `${labelDomain}/${naming.apiserverComponent}-client`,
  apiserverClientSvclet: `${labelDomain}/${naming.apiserverComponent}-client-${nodeAgentName}`,
  svcletServing: `${labelDomain}/${nodeAgentName}-serving`,
  legacyUnknown: `${labelDomain}/legacy-unknown`,
} as const;

export const processNames = {
  apiserver: 'svc-apiserver',
  controllerManager: 'svc-controller-manager',
  /** One-shot PKI writer for multi-replica deployments (kubeadm's `init phase certs` and `kubeconfig`). */
  certs: 'svc-certs',
} as const;

/** The controller manager as RBAC and leader election name it (upstream kube-controller-manager). */
export const controllerManagerComponent = naming.controllerManagerComponent;

/** The controller manager's user name (its client certificate CN), as upstream's system:kube-controller-manager. */
export const controllerManagerUserName = `system:${controllerManagerComponent}`;

/** The apiserver as signer and approver-role names spell it (upstream kube-apiserver). */
export const apiserverComponent = naming.apiserverComponent;

/** Default --service-account-issuer. */
export const defaultServiceAccountIssuer = naming.serviceAccountIssuer;

/** Name of the private claim of ServiceAccount tokens (upstream "kubernetes.io"). */
export const serviceAccountClaim = labelDomain;

/** Markers of the RBAC bootstrap policy (upstream kubernetes.io/bootstrapping, rbac.authorization.kubernetes.io/…). */
export const rbacPolicyKeys = {
  bootstrappingLabel: `${labelDomain}/bootstrapping`,
  autoupdateAnnotation: `rbac.authorization.${labelDomain}/autoupdate`,
  aggregateToAdmin: `${groups.rbac}/aggregate-to-admin`,
  aggregateToEdit: `${groups.rbac}/aggregate-to-edit`,
  aggregateToView: `${groups.rbac}/aggregate-to-view`,
} as const;

/** Labels the server sets (upstream kubernetes.io/metadata.name: every namespace carries its name). */
export const labels = {
  metadataName: `${labelDomain}/metadata.name`,
} as const;

export const annotations = {
  initialEventsEnd: `${productDomain}/initial-events-end`,
  enforceMountableSecrets: `${labelDomain}/enforce-mountable-secrets`,
  deprecated: `${productDomain}/deprecated`,
  removedRelease: `${productDomain}/removed-release`,
  unsafeDeleteIgnoreReadError: `apiserver.${productDomain}/unsafe-delete-ignore-read-error`,
  policyValidationFailure: `validation.policy.admission.${productDomain}/validation_failure`,
} as const;

/** The product word as a metric-name prefix (svc_…; kubernetes_…, as upstream's). */
export const metricPrefix = naming.word;

/** Protobuf media type and the 4-byte magic prefix of the Protobuf envelope. */
export const protobufMediaType = `application/vnd.${naming.word}.protobuf`;

/** Upstream's spelling of the Protobuf media type, which stock clients (kubectl) send. */
const upstreamProtobufMediaType = 'application/vnd.kubernetes.protobuf';

/**
 * Content types also read as Protobuf request bodies: stock clients (kubectl) send the
 * upstream spelling (docs/decisions.md, "Naming profile for stock clients"). Not offered in negotiation or 415 lists.
 */
export const protobufMediaTypeAliases: readonly string[] = [upstreamProtobufMediaType].filter((t) => t !== protobufMediaType);

/**
 * The meta group as stock kubectl names it when asking for Tables (`as=Table;g=meta.k8s.io`):
 * answered beside groups.meta (docs/decisions.md, "Naming profile for stock clients").
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

/** The system namespaces' names (upstream kube-system, kube-public, kube-node-lease). */
export const namespaceNames = {
  system: `${naming.namespacePrefix}-system`,
  public: `${naming.namespacePrefix}-public`,
  nodeLease: `${naming.namespacePrefix}-node-lease`,
} as const;

/** Namespaces the server creates at start-up. */
export const systemNamespaces: readonly string[] = ['default', namespaceNames.system, namespaceNames.public, namespaceNames.nodeLease];

/** Namespaces that may never be deleted. */
export const immortalNamespaces: readonly string[] = ['default', namespaceNames.system, namespaceNames.public];

/** Finalizer a Namespace carries until the namespace controller has emptied it. */
export const namespaceFinalizer = naming.word;

/**
 * OpenAPI vendor extensions. Stock clients (kubectl) look these up by their upstream
 * spelling, so the published documents use it; see docs/decisions.md "naming".
 */
export const openapiExtensions = {
  groupVersionKind: 'x-kubernetes-group-version-kind',
  action: 'x-kubernetes-action',
  listType: 'x-kubernetes-list-type',
  listMapKeys: 'x-kubernetes-list-map-keys',
  mapType: 'x-kubernetes-map-type',
  patchStrategy: 'x-kubernetes-patch-strategy',
  patchMergeKey: 'x-kubernetes-patch-merge-key',
  preserveUnknownFields: 'x-kubernetes-preserve-unknown-fields',
  embeddedResource: 'x-kubernetes-embedded-resource',
  intOrString: 'x-kubernetes-int-or-string',
} as const;

/** Definition-name prefix of OpenAPI schemas (reversed package path). */
export const openapiDefinitionPrefix = {
  api: `${naming.openapiRoot}.api`,
  meta: `${naming.openapiRoot}.apimachinery.pkg.apis.meta.v1`,
  /** apiextensions-apiserver's own package path (upstream io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1). */
  apiextensions: `${naming.openapiRoot}.apiextensions-apiserver.pkg.apis.apiextensions.v1`,
} as const;

/** Upstream's kubernetes_feature_enabled gauge (component-base metrics/prometheus/feature), product word substituted. */
export const featureEnabledMetric = {
  name: `${metricPrefix}_feature_enabled`,
  help: `This metric records the data about the stage and enablement of a ${naming.name} feature.`,
} as const;

/** Version reported by /version: the upstream minor this server follows. */
export const serverVersion = { major: '1', minor: '32', gitVersion: 'v1.32.0-svc.0' } as const;
