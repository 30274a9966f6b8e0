// Endpoints that only take a POST (access reviews, TokenReview, SelfSubjectReview and
// subresources such as serviceaccounts/{name}/token): every field of their body kind wrong-typed,
// plus garbage, empty, deep, bombed and oversized bodies. Their schemas come from lib/api.
import * as api from '../../../../lib/api';
import type { ObjectSchema, ResourceInfo } from '../../../../lib/api';
import type { FuzzCase } from './fuzzCase';
import { jsonWithRaw, nestedArrays, rawSlot } from './jsonText';
import type { Prng } from './prng';
import { pathString, schemaFields, setAtPath } from './schemaFields';
import { gvPrefix } from './targets';
import { wrongLiterals } from './wrongValues';

export interface CreateOnlyTarget {
  /** e.g. /apis/authentication.svc.io/v1/tokenreviews or …/serviceaccounts/x/token. */
  path: string;
  apiVersion: string;
  kind: string;
  schema: ObjectSchema;
}

function isResourceInfo(v: unknown): v is ResourceInfo {
  return typeof v === 'object' && v !== null && 'resource' in v && 'verbs' in v && 'schema' in v && 'subresources' in v;
}

function isObjectSchema(v: unknown): v is ObjectSchema {
  return typeof v === 'object' && v !== null && typeof (v as ObjectSchema).name === 'string' && typeof (v as ObjectSchema).fields === 'object';
}

/** The schema of a kind, found among lib/api's exports by its definition name's last part. */
function schemaOfKind(kind: string): ObjectSchema | undefined {
  return (Object.values(api) as unknown[]).filter(isObjectSchema).find((v) => v.name.endsWith(`.${kind}`));
}

/**
 * Create-only endpoints declared in lib/api: kinds whose only verb is create, and create-only
 * subresources with a body kind of their own. `parentName` names an existing object for subresources.
 */
export function createOnlyTargets(namespace: string, parentName: (info: ResourceInfo) => string | undefined): CreateOnlyTarget[] {
  const out: CreateOnlyTarget[] = [];
  const infos = (Object.values(api) as unknown[]).filter(isResourceInfo);
  for (const info of infos) {
    const base = info.namespaced ? `${gvPrefix(info)}/namespaces/${namespace}/${info.resource}` : `${gvPrefix(info)}/${info.resource}`;
    if (info.verbs.length === 1 && info.verbs[0] === 'create') {
      out.push({ path: base, apiVersion: api.apiVersionOf(info), kind: info.kind, schema: info.schema });
    }
    for (const sub of info.subresources) {
      if (!sub.kind || sub.verbs.join() !== 'create') continue;
      const schema = schemaOfKind(sub.kind.kind);
      const parent = parentName(info);
      if (schema && parent) out.push({ path: `${base}/${parent}/${sub.name}`, apiVersion: api.apiVersionOf(sub.kind), kind: sub.kind.kind, schema });
    }
  }
  return out;
}

export function createOnlyCases(rng: Prng, targets: readonly CreateOnlyTarget[], limit: number): FuzzCase[] {
  const json = { 'Content-Type': 'application/json' };
  const out: FuzzCase[] = [];
  for (const t of targets) {
    const base = (): Record<string, unknown> => ({ apiVersion: t.apiVersion, kind: t.kind });
    for (const { path, field } of schemaFields(t.schema)) {
      const lits = wrongLiterals(field);
      if (!lits.length) continue;
      for (const lit of [lits[0], rng.pick(lits.slice(1))]) {
        const obj = base();
        setAtPath(obj, path, rawSlot);
        out.push({ name: `create-only/wrong-type ${t.kind}.${pathString(path)}=${lit}`, method: 'POST', path: t.path, headers: json, body: Buffer.from(jsonWithRaw(obj, lit)), mustFail: true });
      }
    }
    const valid = JSON.stringify(base());
    const bodies: [string, string | Buffer, string, boolean?][] = [
      ['empty json', '', 'application/json', true],
      ['empty yaml', '', 'application/yaml'],
      ['truncated', valid.slice(0, rng.int(1, valid.length - 1)), 'application/json', true],
      ['array', '[]', 'application/json', true],
      ['deep', nestedArrays(10_000), 'application/json', true],
      ['deep unknown field', `{"apiVersion":"${t.apiVersion}","kind":"${t.kind}","x":${nestedArrays(9_999)}}`, 'application/json'],
      ['yaml bomb', `a0: &a0 "lol"\n${Array.from({ length: 9 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(',')}]`).join('\n')}\n`, 'application/yaml', true],
      ['protobuf garbage', Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), rng.bytes(64)]), 'application/vnd.svc.protobuf'],
      ['wrong kind', JSON.stringify({ apiVersion: t.apiVersion, kind: 'Pod' }), 'application/json', true],
      ['wrong version', JSON.stringify({ apiVersion: 'nope/v9', kind: t.kind }), 'application/json', true],
      ['text', 'review me', 'text/plain', true],
    ];
    for (const [what, body, ct, mustFail] of bodies) {
      out.push({ name: `create-only/${what}`, method: 'POST', path: t.path, headers: { 'Content-Type': ct }, body: Buffer.from(body), mustFail });
    }
    out.push({ name: 'create-only/over limit', method: 'POST', path: t.path, headers: json, body: Buffer.from(`{"apiVersion":"${t.apiVersion}","kind":"${t.kind}","x":"${'p'.repeat(limit)}"}`), expectStatus: 413, identity: 'admin' });
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      out.push({ name: `create-only/${method}`, method, path: t.path, headers: method === 'GET' || method === 'DELETE' ? undefined : json, body: method === 'GET' || method === 'DELETE' ? undefined : Buffer.from(valid), mustFail: true });
    }
  }
  return out;
}
