// The schema of every kind a response may carry, by apiVersion and kind: each served resource's
// kind and list kind, its subresources' own kinds (Scale), the kinds of create-only bodies (reviews, TokenRequest), Status and the
// PartialObjectMetadata forms. The
// Protobuf encoder needs the schema to find field numbers; JSON and YAML do not.
import { apiVersionOf, PartialObjectMetadataListSchema, PartialObjectMetadataSchema, StatusSchema, type ObjectSchema, type ResourceInfo } from '../api';
import { groups, stockClientMetaGroup } from '../api/product';
import { listSchemaFor } from '../codec/schemas';

export type KindSchemas = (apiVersion: string, kind: string) => ObjectSchema | undefined;

export function buildKindSchemas(
  resources: readonly ResourceInfo[],
  bodies: readonly { schema: ObjectSchema; group: string; version: string; kind: string }[],
): KindSchemas {
  const byKind = new Map<string, ObjectSchema>();
  const add = (apiVersion: string, kind: string, schema: ObjectSchema): void => {
    byKind.set(`${apiVersion}/${kind}`, schema);
  };
  add('v1', 'Status', StatusSchema);
  // as=PartialObjectMetadata(List), in every meta group and version a client may ask for.
  for (const g of [groups.meta, stockClientMetaGroup]) {
    for (const v of ['v1', 'v1beta1']) {
      add(`${g}/${v}`, 'PartialObjectMetadata', PartialObjectMetadataSchema);
      add(`${g}/${v}`, 'PartialObjectMetadataList', PartialObjectMetadataListSchema);
    }
  }
  for (const r of resources) {
    add(apiVersionOf(r), r.kind, r.schema);
    add(apiVersionOf(r), r.listKind, listSchemaFor(r));
    for (const sub of r.subresources) if (sub.kind && sub.schema) add(apiVersionOf(sub.kind), sub.kind.kind, sub.schema);
  }
  for (const b of bodies) add(apiVersionOf(b), b.kind, b.schema);
  return (apiVersion, kind) => byKind.get(`${apiVersion}/${kind}`);
}
