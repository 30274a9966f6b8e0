// A view subresource through the in-process server: a custom resource's /scale (GET, PUT, merge
// and JSON patches, dryRun, fieldValidation, the Scale's resourceVersion as precondition,
// upstream's errors), written through the resource's own strategy (generation, validation) and
// admission (which sees Scale objects), and served in Protobuf as a typed kind.
import pino from 'pino';
import { type ApiObject, defineObject, FeatureGates, ObjectMetaSchema, s } from '../../api';
import { ScaleSchema } from '../../api/autoscaling/scale';
import { openapiDefinitionPrefix, protobufMediaType } from '../../api/product';
import { alwaysAllowAuthorizer } from '../../auth/authorizer';
import { decodeProtobufEnvelope, decodeProtobufObject } from '../../codec/protobuf';
import { MemoryStorage } from '../../etcd/memory';
import type { CustomResourceDefinition as Crd } from '../../api/apiextensions';
import { customResourceInfo } from '../../registry/customresources/resourceInfo';
import { CustomResourceStrategy } from '../../registry/customresources/strategy';
import type { ValidatingAdmission } from '../../registry/store';
import { storeFactory } from '../../registry/stores';
import { ResourceRegistry } from '../resourceRegistry';
import { createApiServer, type ApiServer } from '../server';
import { injectRequest, type InjectedResponse } from '../testing/injectRequest';

// What a CRD's structural schema converts to: typed replicas and selector, the rest free.
const spec = defineObject({ name: 'test.WidgetSpec', fields: { replicas: s.int64(), size: s.string() } });
const status = defineObject({ name: 'test.WidgetStatus', fields: { replicas: s.int64(), selector: s.string() } });
const free = defineObject({
  name: 'test.Widget',
  fields: { apiVersion: s.string(), kind: s.string(), metadata: s.object(() => ObjectMetaSchema), spec: s.object(() => spec), status: s.object(() => status) },
});
const scalePaths = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
const crd: Crd = {
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {}, scale: scalePaths } }],
  },
  status: { acceptedNames: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' } },
};
const strategy = new CustomResourceStrategy({
  info: customResourceInfo(crd, 'v1', free),
  hasStatus: true,
  scale: scalePaths,
  terminating: false,
  validateSchema: () => [],
  validateStatus: () => [],
  applyDefaults: () => undefined,
  selectableFields: (o) => ({ 'metadata.name': o.metadata?.name ?? '', 'metadata.namespace': o.metadata?.namespace ?? '' }),
});

const base = '/apis/example.com/v1/namespaces/default/widgets';
let registry: ResourceRegistry;
let api: ApiServer;
let admitted: { operation: string; subresource: string; obj: ApiObject; old: ApiObject | null }[];

beforeEach(() => {
  registry = new ResourceRegistry({ createStore: storeFactory(new MemoryStorage(), '/registry') });
  registry.install(strategy, { served: true });
  admitted = [];
  const admission: ValidatingAdmission = async (ctx, operation, obj, old) => {
    admitted.push({ operation, subresource: ctx.subresource, obj: structuredClone(obj), old: old && structuredClone(old) });
  };
  api = createApiServer({
    resources: registry,
    authenticator: { authenticate: async () => ({ name: 'admin', groups: ['system:masters', 'system:authenticated'] }) },
    authorizer: alwaysAllowAuthorizer(),
    admission,
    anonymousEnabled: false,
    requestTimeoutMs: 10_000,
    features: FeatureGates.parse(''),
    log: pino({ level: 'silent' }),
    maxRequestBodyBytes: 3 << 20,
    serverAddress: '127.0.0.1:6443',
    storageHealth: async () => null,
  });
});

afterEach(async () => {
  await api.close();
  await registry.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<InjectedResponse> {
  return injectRequest(api.handler, {
    method,
    path,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  });
}
const json = (r: InjectedResponse): Json => JSON.parse(r.body.toString()) as Json;

async function createWidget(name: string, spec: Json, status?: Json): Promise<Json> {
  const created = await send('POST', base, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec });
  expect(created.status).toBe(201);
  if (!status) return json(created);
  const r = await send('PUT', `${base}/${name}/status`, { ...json(created), status });
  expect(r.status).toBe(200);
  return json(r);
}

describe('GET /scale', () => {
  test('the Scale of the stored object', async () => {
    const w = await createWidget('w1', { replicas: 3 }, { replicas: 2, selector: 'app=w1' });
    const r = await send('GET', `${base}/w1/scale`);
    expect(r.status).toBe(200);
    expect(json(r)).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'w1', namespace: 'default', uid: w.metadata.uid, resourceVersion: w.metadata.resourceVersion, creationTimestamp: w.metadata.creationTimestamp },
      spec: { replicas: 3 },
      status: { replicas: 2, selector: 'app=w1' },
    });
  });

  test('status replicas are written out when 0 (no omitempty), spec replicas are not', async () => {
    await createWidget('w0', { replicas: 0 });
    const body = (await send('GET', `${base}/w0/scale`)).body.toString();
    expect(body).toContain('"spec":{}');
    expect(body).toContain('"status":{"replicas":0}');
  });

  test('a missing spec replicas field is a 500', async () => {
    await createWidget('w1', { size: 'L' });
    const r = await send('GET', `${base}/w1/scale`);
    expect(r.status).toBe(500);
    expect(json(r)).toMatchObject({ reason: 'InternalError', message: 'Internal error occurred: the spec replicas field ".spec.replicas" does not exist' });
  });

  test('a missing object is a 404 of the resource', async () => {
    const r = await send('GET', `${base}/nope/scale`);
    expect(r.status).toBe(404);
    expect(json(r)).toMatchObject({ reason: 'NotFound', message: 'widgets.example.com "nope" not found' });
  });

  test('Protobuf: the Scale as a typed kind, though the custom resource itself has none', async () => {
    await createWidget('w1', { replicas: 4 }, { replicas: 1, selector: 'a=b' });
    const r = await send('GET', `${base}/w1/scale`, undefined, { accept: protobufMediaType });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(protobufMediaType);
    const env = decodeProtobufEnvelope(r.body);
    expect({ apiVersion: env.apiVersion, kind: env.kind }).toEqual({ apiVersion: 'autoscaling/v1', kind: 'Scale' });
    expect(decodeProtobufObject(env.raw, ScaleSchema)).toMatchObject({ metadata: { name: 'w1', namespace: 'default' }, spec: { replicas: 4 }, status: { replicas: 1, selector: 'a=b' } });
    // The parent stays JSON-only for a plain Protobuf Accept.
    expect((await send('GET', `${base}/w1`, undefined, { accept: protobufMediaType })).status).toBe(406);
  });

  test('a Table of a Scale has the default columns, not the parent’s', async () => {
    await createWidget('w1', { replicas: 4 });
    const r = await send('GET', `${base}/w1/scale`, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json;as=Table;v=v1;g=meta.svc.io' });
    expect(r.status).toBe(200);
    const t = json(r);
    expect(t.kind).toBe('Table');
    expect(t.columnDefinitions.map((c: Json) => c.name)).toEqual(['Name', 'Created At']);
    expect(t.rows[0].cells[0]).toBe('w1');
  });
});

describe('PUT /scale', () => {
  test('writes spec replicas through the main strategy: generation moves, status and the rest stay', async () => {
    const w = await createWidget('w1', { replicas: 1, size: 'L' }, { replicas: 1 });
    const r = await send('PUT', `${base}/w1/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'w1', resourceVersion: w.metadata.resourceVersion }, spec: { replicas: 5 }, status: { replicas: 99, selector: 'x' } });
    expect(r.status).toBe(200);
    const scale = json(r);
    expect(scale).toMatchObject({ kind: 'Scale', spec: { replicas: 5 }, status: { replicas: 1 } });
    expect(Number(scale.metadata.resourceVersion)).toBeGreaterThan(Number(w.metadata.resourceVersion));
    const stored = json(await send('GET', `${base}/w1`));
    expect(stored.spec).toEqual({ replicas: 5, size: 'L' });
    expect(stored.status).toEqual({ replicas: 1 });
    expect(stored.metadata.generation).toBe(w.metadata.generation + 1);
    expect(stored.metadata.resourceVersion).toBe(scale.metadata.resourceVersion);
    // The writer owns the replicas field, recorded for the scale subresource.
    expect(stored.metadata.managedFields).toContainEqual(expect.objectContaining({ operation: 'Update', subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }));
  });

  test('a stale resourceVersion is a 409 Conflict', async () => {
    const w = await createWidget('w1', { replicas: 1 });
    expect((await send('PUT', `${base}/w1`, { ...w, spec: { replicas: 2 } })).status).toBe(200);
    const r = await send('PUT', `${base}/w1/scale`, { metadata: { name: 'w1', resourceVersion: w.metadata.resourceVersion }, spec: { replicas: 5 } });
    expect(r.status).toBe(409);
    expect(json(r)).toMatchObject({ reason: 'Conflict', message: 'Operation cannot be fulfilled on widgets.example.com "w1": the object has been modified; please apply your changes to the latest version and try again' });
    expect(json(await send('GET', `${base}/w1`)).spec).toEqual({ replicas: 2 });
  });

  test('without a resourceVersion the write is unconditional', async () => {
    await createWidget('w1', { replicas: 1 });
    expect(json(await send('PUT', `${base}/w1/scale`, { metadata: { name: 'w1' }, spec: { replicas: 6 } }))).toMatchObject({ spec: { replicas: 6 } });
  });

  test('a Scale without spec replicas writes 0, as upstream decodes it', async () => {
    await createWidget('w1', { replicas: 3 });
    expect(json(await send('PUT', `${base}/w1/scale`, { metadata: { name: 'w1' }, spec: {} })).spec).toEqual({});
    expect(json(await send('GET', `${base}/w1`)).spec).toEqual({ replicas: 0 });
  });

  test('dryRun answers the written Scale and stores nothing', async () => {
    const w = await createWidget('w1', { replicas: 1 });
    const r = await send('PUT', `${base}/w1/scale?dryRun=All`, { metadata: { name: 'w1' }, spec: { replicas: 9 } });
    expect(r.status).toBe(200);
    expect(json(r).spec).toEqual({ replicas: 9 });
    const stored = json(await send('GET', `${base}/w1`));
    expect(stored.spec).toEqual({ replicas: 1 });
    expect(stored.metadata.resourceVersion).toBe(w.metadata.resourceVersion);
  });

  test('the body is decoded as a Scale: fieldValidation=Strict refuses unknown fields', async () => {
    await createWidget('w1', { replicas: 1 });
    const r = await send('PUT', `${base}/w1/scale?fieldValidation=Strict`, { metadata: { name: 'w1' }, spec: { replicas: 2, size: 'L' } });
    expect(r.status).toBe(400);
    expect(json(r).message).toContain('unknown field "spec.size"');
    const warned = await send('PUT', `${base}/w1/scale`, { metadata: { name: 'w1' }, spec: { replicas: 2, size: 'L' } });
    expect(warned.status).toBe(200);
    expect(warned.headers.warning).toContain('unknown field \\"spec.size\\"');
    expect(json(await send('GET', `${base}/w1`)).spec).toEqual({ replicas: 2 });
  });

  test('the resource’s validation refuses negative replicas (422 on the custom resource kind)', async () => {
    await createWidget('w1', { replicas: 1 });
    const r = await send('PUT', `${base}/w1/scale`, { metadata: { name: 'w1' }, spec: { replicas: -1 } });
    expect(r.status).toBe(422);
    expect(json(r)).toMatchObject({ reason: 'Invalid', message: 'Widget.example.com "w1" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer' });
  });

  test('name and namespace must be the request’s', async () => {
    await createWidget('w1', { replicas: 1 });
    const wrongName = await send('PUT', `${base}/w1/scale`, { metadata: { name: 'w2' }, spec: { replicas: 2 } });
    expect(wrongName.status).toBe(400);
    expect(json(wrongName).message).toBe('the name of the object (w2) does not match the name on the URL (w1)');
    const wrongNs = await send('PUT', `${base}/w1/scale`, { metadata: { name: 'w1', namespace: 'other' }, spec: { replicas: 2 } });
    expect(wrongNs.status).toBe(400);
    expect(json(wrongNs).message).toBe('the namespace of the object (other) does not match the namespace on the request (default)');
  });

  test('admission sees the old and new Scale, with the scale subresource', async () => {
    await createWidget('w1', { replicas: 1 });
    admitted = [];
    expect((await send('PUT', `${base}/w1/scale`, { metadata: { name: 'w1' }, spec: { replicas: 2 } })).status).toBe(200);
    expect(admitted).toEqual([
      expect.objectContaining({ operation: 'UPDATE', subresource: 'scale', obj: expect.objectContaining({ kind: 'Scale', spec: { replicas: 2 } }), old: expect.objectContaining({ kind: 'Scale', spec: { replicas: 1 } }) }),
    ]);
  });
});

describe('PATCH /scale', () => {
  const merge = { 'content-type': 'application/merge-patch+json' };

  test('a merge patch of the Scale', async () => {
    await createWidget('w1', { replicas: 1 }, { replicas: 1 });
    const r = await send('PATCH', `${base}/w1/scale`, { spec: { replicas: 4 } }, merge);
    expect(r.status).toBe(200);
    expect(json(r)).toMatchObject({ kind: 'Scale', spec: { replicas: 4 }, status: { replicas: 1 } });
    expect(json(await send('GET', `${base}/w1`))).toMatchObject({ spec: { replicas: 4 }, metadata: { generation: 2 } });
  });

  test('a JSON patch, whose test operation sees the Scale', async () => {
    await createWidget('w1', { replicas: 1 });
    const ops = [
      { op: 'test', path: '/kind', value: 'Scale' },
      { op: 'replace', path: '/spec/replicas', value: 7 },
    ];
    const r = await send('PATCH', `${base}/w1/scale`, ops, { 'content-type': 'application/json-patch+json' });
    expect(r.status).toBe(200);
    expect(json(r).spec).toEqual({ replicas: 7 });
  });

  test('a patch carrying a stale resourceVersion is a 409', async () => {
    const w = await createWidget('w1', { replicas: 1 });
    await send('PATCH', `${base}/w1/scale`, { spec: { replicas: 2 } }, merge);
    const r = await send('PATCH', `${base}/w1/scale`, { metadata: { resourceVersion: w.metadata.resourceVersion }, spec: { replicas: 3 } }, merge);
    expect(r.status).toBe(409);
  });

  test('spec replicas missing: a patch that sets them creates the field, one that does not is a 400', async () => {
    await createWidget('w1', { size: 'L' });
    const empty = await send('PATCH', `${base}/w1/scale`, { metadata: { labels: { a: 'b' } } }, merge);
    expect(empty.status).toBe(400);
    expect(json(empty)).toMatchObject({ reason: 'BadRequest', message: 'the spec replicas field ".spec.replicas" cannot be empty' });
    const set = await send('PATCH', `${base}/w1/scale`, { spec: { replicas: 2 } }, merge);
    expect(set.status).toBe(200);
    expect(json(await send('GET', `${base}/w1`)).spec).toEqual({ size: 'L', replicas: 2 });
  });

  test('spec replicas missing: a PUT is a whole Scale, so one without replicas writes 0 (as upstream)', async () => {
    await createWidget('w1', { size: 'L' });
    expect((await send('PUT', `${base}/w1/scale`, { metadata: { name: 'w1' }, spec: {} })).status).toBe(200);
    expect(json(await send('GET', `${base}/w1`)).spec).toEqual({ size: 'L', replicas: 0 });
  });

  test('the patched Scale is decoded with fieldValidation', async () => {
    await createWidget('w1', { replicas: 1 });
    const r = await send('PATCH', `${base}/w1/scale?fieldValidation=Strict`, { spec: { replicas: 2, size: 'L' } }, merge);
    expect(r.status).toBe(400);
    expect(json(r).message).toContain('unknown field "spec.size"');
    expect(json(await send('GET', `${base}/w1`)).spec).toEqual({ replicas: 1 });
  });

  test('dryRun', async () => {
    await createWidget('w1', { replicas: 1 });
    const r = await send('PATCH', `${base}/w1/scale?dryRun=All`, { spec: { replicas: 8 } }, merge);
    expect(json(r).spec).toEqual({ replicas: 8 });
    expect(json(await send('GET', `${base}/w1`)).spec).toEqual({ replicas: 1 });
  });

  test('server-side apply and strategic merge patches are not offered (415 listing what is)', async () => {
    await createWidget('w1', { replicas: 1 });
    for (const type of ['application/apply-patch+yaml', 'application/strategic-merge-patch+json']) {
      const r = await send('PATCH', `${base}/w1/scale?fieldManager=m`, { spec: { replicas: 2 } }, { 'content-type': type });
      expect(r.status).toBe(415);
      expect(json(r).message).toBe(`the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json`);
    }
  });
});

test('OpenAPI describes /scale with the Scale kind', async () => {
  const doc = json(await send('GET', '/openapi/v3/apis/example.com/v1'));
  const scale = `${openapiDefinitionPrefix.api}.autoscaling.v1.Scale`;
  expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining([scale, `${openapiDefinitionPrefix.api}.autoscaling.v1.ScaleSpec`, `${openapiDefinitionPrefix.api}.autoscaling.v1.ScaleStatus`]));
  const get = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/scale'].get;
  expect(get['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
  expect(JSON.stringify(get.responses['200'])).toContain(scale);
});

test('without subresources.scale there is no /scale', async () => {
  const plain = new CustomResourceStrategy({
    info: customResourceInfo({ ...crd, spec: { ...crd.spec, names: { ...crd.spec!.names, plural: 'gadgets', kind: 'Gadget', listKind: 'GadgetList' }, versions: [{ name: 'v1', served: true, storage: true }] }, status: { acceptedNames: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' } } }, 'v1', free),
    hasStatus: false,
    terminating: false,
    validateSchema: () => [],
    validateStatus: () => [],
    applyDefaults: () => undefined,
    selectableFields: () => ({}),
  });
  expect(plain.subresourceViews).toBeUndefined();
  registry.install(plain, { served: true });
  expect((await send('GET', '/apis/example.com/v1/namespaces/default/gadgets/g1/scale')).status).toBe(404);
});
