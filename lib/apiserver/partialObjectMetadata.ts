// `as=PartialObjectMetadata` / `as=PartialObjectMetadataList` (upstream handlers/response.go
// asPartialObjectMetadata / asPartialObjectMetadataList): an object's metadata alone, or a list of
// them with the list's resourceVersion, continue and remainingItemCount, in the meta group and
// version the client asked for (meta.svc.io or meta.k8s.io; v1 or v1beta1). Any media type may
// carry them. Asking for the single form on a list, or the list form on an object, is a 406.
import type { ApiList, ApiObject, ListMeta, ObjectMeta, ResourceInfo, Status } from '../api';
import { errors } from '../machinery/errors';

export type PartialKind = 'PartialObjectMetadata' | 'PartialObjectMetadataList';

export interface PartialTarget {
  kind: PartialKind;
  group: string;
  version: string;
}

export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: string;
  metadata: ObjectMeta;
}

export interface PartialObjectMetadataList {
  kind: 'PartialObjectMetadataList';
  apiVersion: string;
  metadata: ListMeta;
  /** null when there are no items: upstream appends to a nil slice. */
  items: PartialObjectMetadata[] | null;
}

const isList = (v: ApiObject | ApiList): v is ApiList => Array.isArray((v as ApiList).items);

/** The Go type upstream's messages print (%T of the internal object): `*core.ConfigMapList`. */
export function internalGoType(info: Pick<ResourceInfo, 'group'>, kind: string): string {
  const pkg = info.group === '' ? 'core' : info.group.split('.')[0];
  return `*${pkg}.${kind}`;
}

// metadata is a struct: encoding/json writes it even when empty.
const partial = (obj: ApiObject, apiVersion: string): PartialObjectMetadata => ({ kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata ?? {} });

/** The response body in the requested form; a Status passes unchanged (doTransformObject). */
export function asPartialObjectMetadata(
  value: ApiObject | ApiList | Status,
  target: PartialTarget,
  info: Pick<ResourceInfo, 'group' | 'kind' | 'listKind'>,
): PartialObjectMetadata | PartialObjectMetadataList | Status {
  if (value.kind === 'Status') return value as Status;
  const apiVersion = `${target.group}/${target.version}`;
  const v = value as ApiObject | ApiList;
  if (target.kind === 'PartialObjectMetadata') {
    if (isList(v)) throw errors.notAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (${internalGoType(info, info.listKind)})`);
    return partial(v, apiVersion);
  }
  if (!isList(v)) throw errors.notAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (${internalGoType(info, info.kind)})`);
  const metadata: ListMeta = {};
  if (v.metadata.resourceVersion) metadata.resourceVersion = v.metadata.resourceVersion;
  if (v.metadata.continue) metadata.continue = v.metadata.continue;
  if (v.metadata.remainingItemCount !== undefined) metadata.remainingItemCount = v.metadata.remainingItemCount;
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion,
    metadata,
    items: v.items.length ? v.items.map((i) => partial(i, apiVersion)) : null,
  };
}
