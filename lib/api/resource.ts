// Describes one served resource: its names, scope, schema and subresources.
// Discovery, routing, OpenAPI and storage keys are all derived from this.
import type { ApiLifecycle } from './lifecycle';
import type { ObjectSchema } from './schema';

export interface SubresourceInfo {
  name: string;
  verbs: readonly string[];
  /** Kind of the subresource's body when it differs from the parent (e.g. TokenRequest). */
  kind?: { group: string; version: string; kind: string };
  /** That kind's schema when responses carry it (Scale): Protobuf and CBOR encode with it. */
  schema?: ObjectSchema;
}

export interface ResourceInfo {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  /** Plural resource name used in URLs and storage keys. */
  resource: string;
  singular: string;
  shortNames: readonly string[];
  /** Groupings clients expand (`kubectl get all`, a CRD's `names.categories`). */
  categories?: readonly string[];
  namespaced: boolean;
  verbs: readonly string[];
  schema: ObjectSchema;
  subresources: readonly SubresourceInfo[];
  /**
   * The Warning every request to this version gets, when it is deprecated without a release
   * schedule (a CRD's deprecated version); built-in versions use `lifecycle`.
   */
  deprecationWarning?: string;
  /** Introduced/deprecated/removed releases of this version (absent: a GA version never deprecated). */
  lifecycle?: ApiLifecycle;
  /**
   * When the kind is served in several versions (identical schemas), the one version objects are
   * stored in; absent: this version. Every read sets apiVersion to the served version.
   */
  storageVersion?: string;
  /**
   * Where its objects live under the etcd prefix; absent: the resource name (upstream's built-in
   * kinds). CRDs and custom resources: `<group>/<resource>`.
   */
  storagePath?: string;
  /**
   * Served as upstream serves custom resources (unstructured objects): no Protobuf form of the
   * objects (only of PartialObjectMetadata), no strategic merge patch.
   */
  unstructured?: boolean;
}

export function apiVersionOf(r: { group: string; version: string }): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}
