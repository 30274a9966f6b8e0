// Describes one served resource: its names, scope, schema and subresources.
// Discovery, routing, OpenAPI and storage keys are all derived from this.
import type { ApiLifecycle } from './lifecycle';
import type { ObjectSchema } from './schema';

export interface SubresourceInfo {
  name: string;
  verbs: readonly string[];
  /** Kind of the subresource's body when it differs from the parent (e.g. TokenRequest). */
  kind?: { group: string; version: string; kind: string };
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
  /** Groupings clients expand (kubectl get all, api-extensions); absent: none. */
  categories?: readonly string[];
  namespaced: boolean;
  verbs: readonly string[];
  schema: ObjectSchema;
  subresources: readonly SubresourceInfo[];
  /** Introduced/deprecated/removed releases of this version (absent: a GA version never deprecated). */
  lifecycle?: ApiLifecycle;
  /**
   * When the kind is served in several versions (identical schemas), the one version objects are
   * stored in; absent: this version. Every read sets apiVersion to the served version.
   */
  storageVersion?: string;
}

export function apiVersionOf(r: { group: string; version: string }): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}
