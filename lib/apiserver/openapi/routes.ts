// Every operation the API serves, derived from ResourceInfo the way upstream's installer
// registers routes: paths, verbs, x-kubernetes-action, the operation's GVK, operation ids
// ("patchCertificatesV1CertificateSigningRequestStatus"), parameters, bodies, responses.
import { DeleteOptionsSchema, StatusSchema } from '../../api/meta';
import { openapiDefinitionPrefix, productDomain, protobufMediaType } from '../../api/product';
import type { ResourceInfo } from '../../api/resource';
import type { ObjectSchema } from '../../api/schema';
import { listSchemaFor, schemaNamed, siblingName } from '../../codec/schemas';
import { ParamName, queryParamsFor } from './params';
import { PatchSchema } from './patchSchema';

export interface GVK {
  group: string;
  version: string;
  kind: string;
}

export type Action = 'get' | 'list' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection';
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Route {
  /** "apis/certificates.svc.io/v1" or "api/v1": the OpenAPI v3 document it belongs to. */
  groupVersionPath: string;
  path: string;
  method: Method;
  action: Action;
  operationId: string;
  description: string;
  tag: string;
  gvk: GVK;
  pathParams: ReadonlyArray<'namespace' | 'name'>;
  queryParams: readonly ParamName[];
  /** Kind name used in the path parameter's description. */
  kind: string;
  body?: { schema: ObjectSchema; required: boolean; consumes: readonly string[] };
  responses: ReadonlyArray<{ code: number; description: string; schema: ObjectSchema }>;
  produces: readonly string[];
}

export interface RouteOptions {
  /** Resources whose DELETE returns the deleted object rather than a Status (upstream ReturnDeletedObject). */
  deleteReturnsObject?: (r: ResourceInfo) => boolean;
  /** CBORServingAndStorage is on: CBOR is listed as upstream's installer lists its serializers. */
  cbor?: boolean;
}

export const patchMediaTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
] as const;

const baseProduces = ['application/json', 'application/yaml', protobufMediaType];
const baseWatchProduces = ['application/json;stream=watch', `${protobufMediaType};stream=watch`];

/** Upstream's ToValidOperationID: drops non-identifier characters, capitalizing after them. */
export function toValidOperationId(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  let i = 0;
  for (const ch of s) {
    if (/\p{L}/u.test(ch) || ch === '_' || (i !== 0 && /\p{Nd}/u.test(ch))) {
      out += capitalize ? ch.toUpperCase() : ch;
      capitalize = false;
    } else capitalize = true;
    i++;
  }
  return out;
}

function groupWord(group: string): string {
  const suffix = `.${productDomain}`;
  return group ? (group.endsWith(suffix) ? group.slice(0, -suffix.length) : group) : 'core';
}

const title = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const article = (noun: string): string => (/^[aeiou]/i.test(noun) ? 'an' : 'a');

/** The schema of a subresource's kind, falling back to the parent's. */
function kindSchema(r: ResourceInfo, gvk: GVK): ObjectSchema {
  if (gvk.kind === r.kind && gvk.group === r.group && gvk.version === r.version) return r.schema;
  const first = gvk.group ? gvk.group.split('.')[0] : 'core';
  return schemaNamed(`${openapiDefinitionPrefix.api}.${first}.${gvk.version}.${gvk.kind}`) ?? schemaNamed(siblingName(r.schema, gvk.kind)) ?? r.schema;
}

/** All routes of the given resources, in a stable order. */
export function routesOf(resources: readonly ResourceInfo[], opts: RouteOptions = {}): Route[] {
  const produces = opts.cbor ? [...baseProduces, 'application/cbor'] : baseProduces;
  const producesList = [...produces, ...baseWatchProduces, ...(opts.cbor ? ['application/cbor-seq'] : [])];
  const patchTypes: readonly string[] = opts.cbor ? [...patchMediaTypes, 'application/apply-patch+cbor'] : patchMediaTypes;
  const out: Route[] = [];
  for (const r of resources) {
    const gvPath = r.group ? `apis/${r.group}/${r.version}` : `api/${r.version}`;
    const prefix = `/${gvPath}`;
    const gvWord = toValidOperationId(groupWord(r.group), true) + toValidOperationId(r.version, true);
    const tag = `${toValidOperationId(groupWord(r.group), false)}_${toValidOperationId(r.version, false)}`;
    const ns = r.namespaced ? 'Namespaced' : '';
    const collection = r.namespaced ? `${prefix}/namespaces/{namespace}/${r.resource}` : `${prefix}/${r.resource}`;
    const item = `${collection}/{name}`;
    const scope: Array<'namespace'> = r.namespaced ? ['namespace'] : [];
    const gvk: GVK = { group: r.group, version: r.version, kind: r.kind };
    const listSchema = listSchemaFor(r);
    const opId = (verb: string, rest: string): string => verb + gvWord + toValidOperationId(rest, true);
    const base = { groupVersionPath: gvPath, tag, gvk, kind: r.kind };
    const has = (v: string): boolean => r.verbs.includes(v);
    const statusOrObject = opts.deleteReturnsObject?.(r) ? r.schema : StatusSchema;

    if (has('list')) {
      out.push({
        ...base, path: collection, method: 'get', action: 'list', operationId: opId('list', `${ns}${r.kind}`),
        description: `list or watch objects of kind ${r.kind}`, pathParams: scope, queryParams: queryParamsFor.list,
        responses: [{ code: 200, description: 'OK', schema: listSchema }], produces: producesList,
      });
      if (r.namespaced)
        out.push({
          ...base, path: `${prefix}/${r.resource}`, method: 'get', action: 'list', operationId: opId('list', `${r.kind}ForAllNamespaces`),
          description: `list or watch objects of kind ${r.kind}`, pathParams: [], queryParams: queryParamsFor.list,
          responses: [{ code: 200, description: 'OK', schema: listSchema }], produces: producesList,
        });
    }
    if (has('create'))
      out.push({
        ...base, path: collection, method: 'post', action: 'post', operationId: opId('create', `${ns}${r.kind}`),
        description: `create ${article(r.kind)} ${r.kind}`, pathParams: scope, queryParams: queryParamsFor.create,
        body: { schema: r.schema, required: true, consumes: ['*/*'] },
        responses: [200, 201, 202].map((code) => ({ code, description: code === 200 ? 'OK' : code === 201 ? 'Created' : 'Accepted', schema: r.schema })),
        produces,
      });
    if (has('deletecollection'))
      out.push({
        ...base, path: collection, method: 'delete', action: 'deletecollection', operationId: opId('delete', `collection${ns}${r.kind}`),
        description: `delete collection of ${r.kind}`, pathParams: scope, queryParams: queryParamsFor.deletecollection,
        body: { schema: DeleteOptionsSchema, required: false, consumes: ['*/*'] },
        responses: [{ code: 200, description: 'OK', schema: StatusSchema }], produces,
      });
    const itemScope: Array<'namespace' | 'name'> = ['name', ...scope];
    if (has('get'))
      out.push({
        ...base, path: item, method: 'get', action: 'get', operationId: opId('read', `${ns}${r.kind}`),
        description: `read the specified ${r.kind}`, pathParams: itemScope, queryParams: queryParamsFor.read,
        responses: [{ code: 200, description: 'OK', schema: r.schema }], produces,
      });
    if (has('update'))
      out.push({
        ...base, path: item, method: 'put', action: 'put', operationId: opId('replace', `${ns}${r.kind}`),
        description: `replace the specified ${r.kind}`, pathParams: itemScope, queryParams: queryParamsFor.replace,
        body: { schema: r.schema, required: true, consumes: ['*/*'] },
        responses: [{ code: 200, description: 'OK', schema: r.schema }, { code: 201, description: 'Created', schema: r.schema }], produces,
      });
    if (has('patch'))
      out.push({
        ...base, path: item, method: 'patch', action: 'patch', operationId: opId('patch', `${ns}${r.kind}`),
        description: `partially update the specified ${r.kind}`, pathParams: itemScope, queryParams: queryParamsFor.patch,
        body: { schema: PatchSchema, required: true, consumes: patchTypes },
        responses: [{ code: 200, description: 'OK', schema: r.schema }, { code: 201, description: 'Created', schema: r.schema }], produces,
      });
    if (has('delete'))
      out.push({
        ...base, path: item, method: 'delete', action: 'delete', operationId: opId('delete', `${ns}${r.kind}`),
        description: `delete ${article(r.kind)} ${r.kind}`, pathParams: itemScope, queryParams: queryParamsFor.delete,
        body: { schema: DeleteOptionsSchema, required: false, consumes: ['*/*'] },
        responses: [{ code: 200, description: 'OK', schema: statusOrObject }, { code: 202, description: 'Accepted', schema: statusOrObject }], produces,
      });

    for (const sub of r.subresources) {
      const subGVK = sub.kind ?? gvk;
      const schema = kindSchema(r, subGVK);
      const path = `${item}/${sub.name}`;
      const suffix = title(sub.name);
      const subBase = { ...base, gvk: subGVK, kind: r.kind, path, pathParams: itemScope };
      for (const verb of sub.verbs) {
        if (verb === 'get')
          out.push({
            ...subBase, method: 'get', action: 'get', operationId: opId('read', `${ns}${r.kind}${suffix}`),
            description: `read ${sub.name} of the specified ${r.kind}`, queryParams: queryParamsFor.read,
            responses: [{ code: 200, description: 'OK', schema }], produces,
          });
        else if (verb === 'create')
          out.push({
            ...subBase, method: 'post', action: 'post', operationId: opId('create', `${ns}${r.kind}${suffix}`),
            description: `create ${sub.name} of ${article(r.kind)} ${r.kind}`, queryParams: queryParamsFor.create,
            body: { schema, required: true, consumes: ['*/*'] },
            responses: [200, 201, 202].map((code) => ({ code, description: code === 200 ? 'OK' : code === 201 ? 'Created' : 'Accepted', schema })),
            produces,
          });
        else if (verb === 'update')
          out.push({
            ...subBase, method: 'put', action: 'put', operationId: opId('replace', `${ns}${r.kind}${suffix}`),
            description: `replace ${sub.name} of the specified ${r.kind}`, queryParams: queryParamsFor.replace,
            body: { schema, required: true, consumes: ['*/*'] },
            responses: [{ code: 200, description: 'OK', schema }, { code: 201, description: 'Created', schema }], produces,
          });
        else if (verb === 'patch')
          out.push({
            ...subBase, method: 'patch', action: 'patch', operationId: opId('patch', `${ns}${r.kind}${suffix}`),
            description: `partially update ${sub.name} of the specified ${r.kind}`, queryParams: queryParamsFor.patch,
            body: { schema: PatchSchema, required: true, consumes: patchTypes },
            responses: [{ code: 200, description: 'OK', schema }, { code: 201, description: 'Created', schema }], produces,
          });
      }
    }
  }
  return out;
}
