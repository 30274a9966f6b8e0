// Finds schemas by definition name among everything lib/api exports, so a list kind or a
// subresource kind (e.g. TokenRequest) needs no extra registration here; a list schema
// that lib/api does not define is synthesized the way upstream list types look.
import * as api from '../api/index';
import { ListMetaSchema } from '../api/meta';
import type { ResourceInfo } from '../api/resource';
import { defineObject, ObjectSchema, s } from '../api/schema';

function isObjectSchema(v: unknown): v is ObjectSchema {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as { name?: unknown; fields?: unknown };
  return typeof o.name === 'string' && typeof o.fields === 'object' && o.fields !== null;
}

let byName: Map<string, ObjectSchema> | undefined;

function index(): Map<string, ObjectSchema> {
  if (!byName) {
    byName = new Map();
    for (const v of Object.values(api)) if (isObjectSchema(v)) byName.set(v.name, v);
  }
  return byName;
}

/** Every ObjectSchema exported by lib/api, by definition name. */
export function schemaNamed(name: string): ObjectSchema | undefined {
  return index().get(name);
}

/** Every ObjectSchema exported by lib/api (generated tests cover each). */
export function allSchemas(): ObjectSchema[] {
  return [...index().values()];
}

/** "io.svc.api.core.v1.Namespace" with kind "NamespaceList" → "io.svc.api.core.v1.NamespaceList". */
export function siblingName(schema: ObjectSchema, kind: string): string {
  const i = schema.name.lastIndexOf('.');
  return `${schema.name.slice(0, i + 1)}${kind}`;
}

const listCache = new WeakMap<ObjectSchema, ObjectSchema>();

/** The schema of a resource's list kind. */
export function listSchemaFor(r: ResourceInfo): ObjectSchema {
  const known = schemaNamed(siblingName(r.schema, r.listKind));
  if (known) return known;
  let synthesized = listCache.get(r.schema);
  if (!synthesized) {
    synthesized = defineObject({
      name: siblingName(r.schema, r.listKind),
      description: `${r.listKind} is a list of ${r.kind} objects.`,
      fields: {
        apiVersion: s.string(),
        kind: s.string(),
        metadata: s.object(() => ListMetaSchema, { protobuf: 1 }),
        items: s.array(s.object(() => r.schema), { protobuf: 2, required: true }),
      },
    });
    listCache.set(r.schema, synthesized);
  }
  return synthesized;
}
