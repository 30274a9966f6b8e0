// Builds the published documents: /openapi/v2 (Swagger 2.0, every path) and one
// OpenAPI 3.0 document per group-version for /openapi/v3/<api/v1|apis/g/v>. Both carry
// x-kubernetes-action and the operation's x-kubernetes-group-version-kind on every
// operation, and the kind list on top-level kind definitions. Shape notes that stock
// kubectl depends on:
// - v3 operation parameters are inline objects (never $ref): kubectl's field-validation
//   check reads each PATCH operation's `parameters[].name` looking for fieldValidation;
// - the operation GVK is a single {group, kind, version} object, while a definition's is
//   a list of such objects (kubectl explain matches the one against the other);
// - path keys keep upstream's literal {namespace} and {name} placeholders.
import { DeleteOptionsSchema, StatusSchema } from '../../api/meta';
import { openapiExtensions as X, processNames, serverVersion } from '../../api/product';
import type { ResourceInfo } from '../../api/resource';
import type { ObjectSchema } from '../../api/schema';
import { listSchemaFor } from '../../codec/schemas';
import { params, ParamName } from './params';
import { GVK, Method, Route, RouteOptions, routesOf } from './routes';
import { definitionOf, Flavor, JSONObject, reachableSchemas, refTo } from './schemaJSON';

export interface OpenAPIBuildOptions extends RouteOptions {
  /** info.title; defaults to the apiserver's process name. */
  title?: string;
}

const bearer = { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' };
const unauthorized = { description: 'Unauthorized' };

/** Definition name → the GVKs it is the top-level type of. */
function kindsByDefinition(resources: readonly ResourceInfo[], routes: readonly Route[]): Map<string, GVK[]> {
  const out = new Map<string, GVK[]>();
  const add = (schema: ObjectSchema, g: GVK): void => {
    const list = out.get(schema.name) ?? [];
    if (!list.some((x) => x.group === g.group && x.version === g.version && x.kind === g.kind)) list.push(g);
    out.set(schema.name, list);
  };
  for (const r of resources) {
    add(r.schema, { group: r.group, version: r.version, kind: r.kind });
    add(listSchemaFor(r), { group: r.group, version: r.version, kind: r.listKind });
  }
  for (const rt of routes) {
    const s = rt.responses[0]?.schema;
    if (s && rt.gvk.kind !== rt.kind && s.name.endsWith(`.${rt.gvk.kind}`)) add(s, rt.gvk);
  }
  add(StatusSchema, { group: '', version: 'v1', kind: 'Status' });
  const gvs = new Map<string, { group: string; version: string }>([['/v1', { group: '', version: 'v1' }]]);
  for (const r of resources) gvs.set(`${r.group}/${r.version}`, { group: r.group, version: r.version });
  for (const gv of [...gvs.values()].sort((a, b) => (a.group + '/' + a.version < b.group + '/' + b.version ? -1 : 1)))
    add(DeleteOptionsSchema, { ...gv, kind: 'DeleteOptions' });
  return out;
}

function definitions(roots: Iterable<ObjectSchema>, kinds: Map<string, GVK[]>, flavor: Flavor): JSONObject {
  const all = reachableSchemas(roots);
  const out: JSONObject = {};
  for (const name of [...all.keys()].sort()) out[name] = definitionOf(all.get(name) as ObjectSchema, flavor, kinds.get(name));
  return out;
}

function schemaRoots(routes: readonly Route[]): ObjectSchema[] {
  const roots: ObjectSchema[] = [];
  for (const r of routes) {
    if (r.body) roots.push(r.body.schema);
    for (const resp of r.responses) roots.push(resp.schema);
  }
  return roots;
}

interface ParamRef {
  name: ParamName;
  kind: string;
}

function paramObject(p: ParamRef, flavor: Flavor): JSONObject {
  const spec = params[p.name];
  const description = p.name === 'name' ? `name of the ${p.kind}` : spec.description;
  const o: JSONObject = flavor === 'v2' ? { uniqueItems: true, type: spec.type, description, name: spec.name, in: spec.in } : { name: spec.name, in: spec.in, description };
  if (spec.in === 'path') o.required = true;
  if (flavor === 'v3') o.schema = { type: spec.type, uniqueItems: true };
  return o;
}

const byNameIn = (a: JSONObject, b: JSONObject): number =>
  String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : String(a.in) < String(b.in) ? -1 : String(a.in) > String(b.in) ? 1 : 0;

function allParams(r: Route): ParamName[] {
  return [...r.pathParams, ...r.queryParams];
}

/** Parameters shared by every operation of a path go on the path item (upstream's findCommonParameters). */
function commonParams(routes: readonly Route[]): Set<ParamName> {
  const common = new Set<ParamName>(routes[0].pathParams);
  if (routes.length > 1) for (const p of allParams(routes[0])) if (routes.every((r) => allParams(r).includes(p))) common.add(p);
  return common;
}

function operation(r: Route, common: Set<ParamName>, flavor: Flavor): JSONObject {
  const opParams = allParams(r)
    .filter((p) => !common.has(p))
    .map((name) => paramObject({ name, kind: r.kind }, flavor))
    .sort(byNameIn);
  const ext = { [X.action]: r.action, [X.groupVersionKind]: { group: r.gvk.group, kind: r.gvk.kind, version: r.gvk.version } };
  if (flavor === 'v2') {
    const parameters: JSONObject[] = [];
    if (r.body) {
      const body: JSONObject = { name: 'body', in: 'body', schema: { $ref: refTo(r.body.schema.name, 'v2') } };
      if (r.body.required) body.required = true;
      parameters.push(body);
    }
    parameters.push(...opParams);
    const responses: JSONObject = {};
    for (const resp of r.responses) responses[String(resp.code)] = { description: resp.description, schema: { $ref: refTo(resp.schema.name, 'v2') } };
    responses['401'] = unauthorized;
    const o: JSONObject = {
      description: r.description,
      consumes: r.body ? [...r.body.consumes] : ['*/*'],
      produces: [...r.produces],
      schemes: ['https'],
      tags: [r.tag],
      operationId: r.operationId,
    };
    if (parameters.length) o.parameters = parameters;
    o.responses = responses;
    return { ...o, ...ext };
  }
  const o: JSONObject = { description: r.description, operationId: r.operationId };
  if (opParams.length) o.parameters = opParams;
  if (r.body) {
    const content: JSONObject = {};
    for (const ct of r.body.consumes) content[ct] = { schema: { $ref: refTo(r.body.schema.name, 'v3') } };
    o.requestBody = r.body.required ? { content, required: true } : { content };
  }
  const responses: JSONObject = {};
  for (const resp of r.responses) {
    const content: JSONObject = {};
    for (const ct of r.produces) content[ct] = { schema: { $ref: refTo(resp.schema.name, 'v3') } };
    responses[String(resp.code)] = { description: resp.description, content };
  }
  responses['401'] = unauthorized;
  o.responses = responses;
  o.tags = [r.tag];
  return { ...o, ...ext };
}

function pathsOf(routes: readonly Route[], flavor: Flavor): JSONObject {
  const byPath = new Map<string, Route[]>();
  for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  const out: JSONObject = {};
  for (const path of [...byPath.keys()].sort()) {
    const rs = byPath.get(path) as Route[];
    const common = commonParams(rs);
    const item: JSONObject = {};
    const methods: Method[] = ['get', 'put', 'post', 'delete', 'patch'];
    for (const m of methods) {
      const r = rs.find((x) => x.method === m);
      if (r) item[m] = operation(r, common, flavor);
    }
    item.parameters = [...common].map((name) => paramObject({ name, kind: rs[0].kind }, flavor)).sort(byNameIn);
    out[path] = item;
  }
  return out;
}

/** The Swagger 2.0 document served at /openapi/v2. */
export function buildSwaggerV2(resources: readonly ResourceInfo[], opts: OpenAPIBuildOptions = {}): JSONObject {
  const routes = routesOf(resources, opts);
  const kinds = kindsByDefinition(resources, routes);
  return {
    swagger: '2.0',
    info: { title: opts.title ?? processNames.apiserver, version: serverVersion.gitVersion },
    paths: pathsOf(routes, 'v2'),
    definitions: definitions(schemaRoots(routes), kinds, 'v2'),
    securityDefinitions: { BearerToken: bearer },
    security: [{ BearerToken: [] }],
  };
}

/** OpenAPI 3.0 documents by group-version path ("api/v1", "apis/<group>/<version>"). */
export function buildOpenAPIV3(resources: readonly ResourceInfo[], opts: OpenAPIBuildOptions = {}): Map<string, JSONObject> {
  const routes = routesOf(resources, opts);
  const kinds = kindsByDefinition(resources, routes);
  const byGV = new Map<string, Route[]>();
  for (const r of routes) byGV.set(r.groupVersionPath, [...(byGV.get(r.groupVersionPath) ?? []), r]);
  const out = new Map<string, JSONObject>();
  for (const gv of [...byGV.keys()].sort()) {
    const rs = byGV.get(gv) as Route[];
    out.set(gv, {
      openapi: '3.0.0',
      info: { title: opts.title ?? processNames.apiserver, version: 'unversioned' },
      paths: pathsOf(rs, 'v3'),
      components: { schemas: definitions(schemaRoots(rs), kinds, 'v3'), securitySchemes: { BearerToken: bearer } },
      security: [{ BearerToken: [] }],
    });
  }
  return out;
}
