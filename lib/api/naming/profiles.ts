// The two spellings of every identifier that carries the product word (docs/decisions.md, "Naming
// profile"). Pure data: product.ts derives each exported name from the one profile selected.

export type NamingProfileName = 'svc' | 'k8s';

export interface NamingProfile {
  readonly name: NamingProfileName;
  /** Suffix of API group names (certificates.<groupDomain>) and of the k8s.io-style keys (initial-events-end). */
  readonly groupDomain: string;
  /** Domain of the kubernetes.io-style labels, annotations, signer names and the token's private claim. */
  readonly labelDomain: string;
  /** The product word of the protobuf media type (application/vnd.<word>.protobuf), metric prefixes and the namespace finalizer. */
  readonly word: string;
  /** Reversed domain starting OpenAPI definition names (io.k8s.api.…). */
  readonly openapiRoot: string;
  /** Prefix of the system namespaces (<prefix>-system, <prefix>-public, <prefix>-node-lease). */
  readonly namespacePrefix: string;
  /** Component names as signers, RBAC roles and the controller manager's identity spell them. */
  readonly apiserverComponent: string;
  readonly controllerManagerComponent: string;
  /** The node agent (upstream's kubelet). */
  readonly nodeAgent: string;
  /** Default --service-account-issuer (kubeadm's for k8s). */
  readonly serviceAccountIssuer: string;
}

export const namingProfiles: Readonly<Record<NamingProfileName, NamingProfile>> = {
  svc: {
    name: 'svc',
    groupDomain: 'svc.io',
    labelDomain: 'svc.io',
    word: 'svc',
    openapiRoot: 'io.svc',
    namespacePrefix: 'svc',
    apiserverComponent: 'svc-apiserver',
    controllerManagerComponent: 'svc-controller-manager',
    nodeAgent: 'svclet',
    serviceAccountIssuer: 'https://svc.default.svc.cluster.local',
  },
  k8s: {
    name: 'k8s',
    groupDomain: 'k8s.io',
    labelDomain: 'kubernetes.io',
    word: 'kubernetes',
    openapiRoot: 'io.k8s',
    namespacePrefix: 'kube',
    apiserverComponent: 'kube-apiserver',
    controllerManagerComponent: 'kube-controller-manager',
    nodeAgent: 'kubelet',
    serviceAccountIssuer: 'https://kubernetes.default.svc.cluster.local',
  },
};

export const namingProfileNames = Object.keys(namingProfiles) as NamingProfileName[];

export function isNamingProfileName(v: string): v is NamingProfileName {
  return Object.prototype.hasOwnProperty.call(namingProfiles, v);
}
