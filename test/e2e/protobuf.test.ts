// Protobuf responses and watch streams through raw HTTPS (wire-formats.md §5, watch-and-list.md
// §6): the `k8s\0` + Unknown envelope for objects, lists and Status errors of several kinds, the
// Content-Type the client asked for (ours or the upstream alias), length-prefixed WatchEvent
// frames, and stock kubectl reading our Protobuf answers.
import https from 'node:https';
import { apiVersionOf, selfsubjectreviews, tokenRequestKind, TokenRequestSchema, type ObjectSchema } from '../../lib/api';
import { normalize } from '../../lib/codec/normalize';
import { decodeProtobufEnvelope, decodeProtobufObject, encodeProtobuf } from '../../lib/codec/protobuf';
import { decodeProtobufWatchEvent, splitProtobufWatchFrames } from '../../lib/codec/protobufWatch';
import { compactEtcd } from '../../lib/etcd/testing/compactEtcd';
import { buildKindSchemas } from '../../lib/apiserver/kindSchemas';
import { builtinStrategies } from '../../lib/registry/builtin';
import { startCluster, TestCluster, type Response } from './support/apiserver';
import { kubectlMinor } from './support/kubectlBinaries';

const PB = 'application/vnd.svc.protobuf';
const K8S = 'application/vnd.kubernetes.protobuf';
const schemaFor = buildKindSchemas(
  [...builtinStrategies.map((s) => s.resource), selfsubjectreviews],
  [{ schema: TokenRequestSchema, ...tokenRequestKind }],
);

let c: TestCluster;
beforeAll(async () => {
  c = await startCluster();
  expect((await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'pb' } } })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await c?.stop();
});

type Obj = Record<string, unknown> & { kind?: string; apiVersion?: string; metadata?: Record<string, unknown>; items?: Obj[] };

/** A Protobuf body as JSON: checks the magic, reads the envelope, decodes by the envelope's kind. */
function fromProtobuf(bytes: Uint8Array): Obj {
  expect([...bytes.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
  const env = decodeProtobufEnvelope(bytes);
  const schema = schemaFor(env.apiVersion, env.kind) as ObjectSchema;
  expect(schema).toBeDefined();
  return normalize({ apiVersion: env.apiVersion, kind: env.kind, ...decodeProtobufObject(env.raw, schema) }, schema) as Obj;
}

function pbResponse(r: Response, accept = PB): Obj {
  expect(r.headers['content-type']).toBe(accept);
  return fromProtobuf(r.bytes);
}

function toProtobuf(obj: Obj): Buffer {
  const apiVersion = obj.apiVersion as string;
  const kind = obj.kind as string;
  return Buffer.from(encodeProtobuf(obj, schemaFor(apiVersion, kind) as ObjectSchema, apiVersion, kind));
}

const cms = '/api/v1/namespaces/pb/configmaps';

describe('Protobuf responses', () => {
  test('create, get, list, update, patch and delete a ConfigMap in Protobuf; each equals the JSON answer', async () => {
    const api = c.apiserver;
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app', labels: { b: '2', a: '1' } }, data: { k: 'v' }, binaryData: { bin: Buffer.from([0, 255]).toString('base64') } };
    const created = await api.request('POST', cms, { body: toProtobuf(cm), contentType: PB, headers: { Accept: PB } });
    expect(created.status).toBe(201);
    const createdObj = pbResponse(created);
    expect(createdObj).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'app', namespace: 'pb', labels: { a: '1', b: '2' } }, data: { k: 'v' }, binaryData: cm.binaryData });

    const asJson = (await api.request('GET', `${cms}/app`)).json();
    expect(pbResponse(await api.request('GET', `${cms}/app`, { headers: { Accept: PB } }))).toEqual(asJson);
    expect(createdObj).toEqual(asJson);

    const list = pbResponse(await api.request('GET', cms, { headers: { Accept: PB } }));
    const jsonList = (await api.request('GET', cms)).json<Obj>();
    expect(list.kind).toBe('ConfigMapList');
    expect(list.items).toEqual(jsonList.items);
    expect(list.metadata?.resourceVersion).toMatch(/^\d+$/);

    const updated = await api.request('PUT', `${cms}/app`, { body: toProtobuf({ ...asJson, data: { k: 'v2' } }), contentType: PB, headers: { Accept: PB } });
    expect(updated.status).toBe(200);
    expect(pbResponse(updated)).toMatchObject({ data: { k: 'v2' } });

    const patched = await api.request('PATCH', `${cms}/app`, { body: { data: { p: 'q' } }, contentType: 'application/merge-patch+json', headers: { Accept: PB } });
    expect(patched.status).toBe(200);
    expect(pbResponse(patched)).toMatchObject({ data: { k: 'v2', p: 'q' } });

    const deleted = await api.request('DELETE', `${cms}/app`, { headers: { Accept: PB } });
    expect(deleted.status).toBe(200);
    expect(pbResponse(deleted)).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Success', details: { name: 'app', kind: 'configmaps' } });
  });

  test('the upstream alias is answered under the alias: cluster-scoped kinds, lists and a Lease with MicroTime', async () => {
    const api = c.apiserver;
    const role = { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRole', metadata: { name: 'pb-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] };
    expect((await api.request('POST', '/apis/rbac.authorization.svc.io/v1/clusterroles', { body: role })).status).toBe(201);
    const got = pbResponse(await api.request('GET', '/apis/rbac.authorization.svc.io/v1/clusterroles/pb-reader', { headers: { Accept: `${K8S}, */*` } }), K8S);
    expect(got).toEqual((await api.request('GET', '/apis/rbac.authorization.svc.io/v1/clusterroles/pb-reader')).json());

    const lease = { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: 'pb-lease' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2026-01-10T08:00:00.123456Z' } };
    expect((await api.request('POST', '/apis/coordination.svc.io/v1/namespaces/pb/leases', { body: lease })).status).toBe(201);
    const leaseList = pbResponse(await api.request('GET', '/apis/coordination.svc.io/v1/namespaces/pb/leases', { headers: { Accept: K8S } }), K8S);
    expect(leaseList).toMatchObject({ kind: 'LeaseList', apiVersion: 'coordination.svc.io/v1' });
    expect(leaseList.items?.[0]).toMatchObject({ spec: { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2026-01-10T08:00:00.123456Z' } });

    const sa = pbResponse(await api.request('GET', '/api/v1/namespaces/pb/serviceaccounts', { headers: { Accept: PB } }));
    expect(sa.kind).toBe('ServiceAccountList');
  });

  test('subresources and create-only endpoints answer in Protobuf: namespaces/status, serviceaccounts/token, selfsubjectreviews', async () => {
    const api = c.apiserver;
    const status = await api.request('GET', '/api/v1/namespaces/pb/status', { headers: { Accept: PB } });
    expect(status.status).toBe(200);
    expect(pbResponse(status)).toMatchObject({ kind: 'Namespace', metadata: { name: 'pb' }, status: { phase: 'Active' } });

    expect((await api.request('POST', '/api/v1/namespaces/pb/serviceaccounts', { body: { metadata: { name: 'tok' } } })).status).toBe(201);
    const tokenRequest = { apiVersion: 'authentication.svc.io/v1', kind: 'TokenRequest', spec: { audiences: ['pb'], expirationSeconds: 3600 } };
    const token = await api.request('POST', '/api/v1/namespaces/pb/serviceaccounts/tok/token', { body: toProtobuf(tokenRequest), contentType: PB, headers: { Accept: PB } });
    expect(token.status).toBe(201);
    const tr = pbResponse(token);
    expect(tr).toMatchObject({ kind: 'TokenRequest', apiVersion: 'authentication.svc.io/v1', spec: { audiences: ['pb'], expirationSeconds: 3600 } });
    expect((tr.status as { token: string }).token.split('.')).toHaveLength(3);

    const review = await api.request('POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', { body: { apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' }, headers: { Accept: K8S } });
    expect(review.status).toBe(201);
    expect(pbResponse(review, K8S)).toMatchObject({ kind: 'SelfSubjectReview', status: { userInfo: { username: expect.any(String) } } });
  });

  test('every Status error is Protobuf too: 404, 409, 422 and 400', async () => {
    const api = c.apiserver;
    const missing = await api.request('GET', `${cms}/nothing`, { headers: { Accept: PB } });
    expect(missing.status).toBe(404);
    expect(pbResponse(missing)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "nothing" not found', reason: 'NotFound', details: { name: 'nothing', kind: 'configmaps' }, code: 404 });

    const body = toProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice' } });
    expect((await api.request('POST', cms, { body, contentType: PB })).status).toBe(201);
    const conflict = await api.request('POST', cms, { body, contentType: PB, headers: { Accept: K8S } });
    expect(conflict.status).toBe(409);
    expect(pbResponse(conflict, K8S)).toMatchObject({ reason: 'AlreadyExists', code: 409 });

    const invalid = await api.request('POST', cms, { body: { metadata: { name: 'Bad_Name' } }, headers: { Accept: PB } });
    expect(invalid.status).toBe(422);
    expect(pbResponse(invalid)).toMatchObject({ reason: 'Invalid', code: 422, details: { causes: [{ field: 'metadata.name' }] } });

    const bad = await api.request('GET', `${cms}?labelSelector=%21%21`, { headers: { Accept: PB } });
    expect(bad.status).toBe(400);
    expect(pbResponse(bad)).toMatchObject({ kind: 'Status', code: 400 });

    // Errors before routing are negotiated as well (upstream ErrorNegotiated).
    const anonymous = await api.request('GET', cms, { anonymous: true, headers: { Accept: PB } });
    expect([401, 403]).toContain(anonymous.status);
    expect(pbResponse(anonymous)).toMatchObject({ kind: 'Status', status: 'Failure', code: anonymous.status });
    const noRoute = await api.request('GET', '/apis/nothing.svc.io/v1/things', { headers: { Accept: K8S } });
    expect(noRoute.status).toBe(404);
    expect(pbResponse(noRoute, K8S)).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  test('406 lists the offered types in JSON; a Table is never Protobuf; JSON stays the default', async () => {
    const api = c.apiserver;
    const r = await api.request('GET', cms, { headers: { Accept: 'text/html' } });
    expect(r.status).toBe(406);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json()).toMatchObject({ reason: 'NotAcceptable', message: `only the following media types are accepted: application/json, application/yaml, ${PB}` });
    const table = await api.request('GET', cms, { headers: { Accept: `${PB};as=Table;v=v1;g=meta.svc.io` } });
    expect(table.status).toBe(406);
    const watchYaml = await api.request('GET', `${cms}?watch=true&timeoutSeconds=1`, { headers: { Accept: 'application/yaml' } });
    expect(watchYaml.status).toBe(406);
    // Written in YAML: the error writer negotiates without the stream restriction (upstream ErrorNegotiated).
    expect(watchYaml.headers['content-type']).toBe('application/yaml');
    expect(watchYaml.body).toContain(`only the following media types are accepted: application/json;stream=watch, ${PB};stream=watch`);
    expect((await api.request('GET', cms, { headers: { Accept: '*/*' } })).headers['content-type']).toBe('application/json');
    expect((await api.request('GET', cms, { headers: { Accept: `${PB};q=0.5, application/json` } })).headers['content-type']).toBe('application/json');
  });
});

interface PbWatch {
  contentType: () => string | undefined;
  events: { type: string; object: Obj }[];
  waitFor(pred: (e: { type: string; object: Obj }[]) => boolean): Promise<{ type: string; object: Obj }[]>;
  close(): void;
}

function pbWatch(path: string, accept: string): PbWatch {
  const tls = c.apiserver.adminTls();
  const events: { type: string; object: Obj }[] = [];
  let contentType: string | undefined;
  let buf: Uint8Array = new Uint8Array(0);
  const req = https.request(`${c.apiserver.url}${path}`, { ...tls, headers: { Accept: accept } }, (res) => {
    contentType = res.headers['content-type'];
    res.on('data', (chunk: Buffer) => {
      const { frames, rest } = splitProtobufWatchFrames(Buffer.concat([buf, chunk]));
      buf = Uint8Array.from(rest);
      for (const f of frames) {
        const ev = decodeProtobufWatchEvent(f);
        events.push({ type: ev.type, object: fromProtobuf(ev.raw) });
      }
    });
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  req.end();
  return {
    contentType: () => contentType,
    events,
    async waitFor(pred) {
      const deadline = Date.now() + 10_000;
      while (!pred(events)) {
        if (Date.now() > deadline) throw new Error(`watch condition not met: ${JSON.stringify(events.map((e) => e.type))}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return events;
    },
    close: () => req.destroy(),
  };
}

describe('Protobuf watch streams', () => {
  test('ADDED, MODIFIED, DELETED and the initial-events-end BOOKMARK arrive as length-prefixed WatchEvents', async () => {
    const api = c.apiserver;
    const sas = '/api/v1/namespaces/pb/serviceaccounts';
    const w = pbWatch(`${sas}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`, `${PB};stream=watch`);
    await w.waitFor((e) => e.some((x) => x.type === 'BOOKMARK'));
    expect(w.contentType()).toBe(`${PB};stream=watch`);
    const bookmark = w.events.find((e) => e.type === 'BOOKMARK');
    expect(bookmark?.object).toMatchObject({ kind: 'ServiceAccount', apiVersion: 'v1', metadata: { annotations: { 'svc.io/initial-events-end': 'true' } } });

    expect((await api.request('POST', sas, { body: { metadata: { name: 'watched' } } })).status).toBe(201);
    await api.request('PATCH', `${sas}/watched`, { body: { metadata: { labels: { x: 'y' } } }, contentType: 'application/merge-patch+json' });
    await api.request('DELETE', `${sas}/watched`);
    const events = await w.waitFor((e) => e.some((x) => x.type === 'DELETED' && x.object.metadata?.name === 'watched'));
    w.close();
    const mine = events.filter((e) => e.object.metadata?.name === 'watched');
    expect(mine.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(mine[1].object).toMatchObject({ kind: 'ServiceAccount', metadata: { labels: { x: 'y' } } });
  });

  test('the alias without stream=watch is answered as `<alias>;stream=watch`', async () => {
    const w = pbWatch(`${cms}?watch=true&resourceVersion=0`, K8S);
    await w.waitFor((e) => e.some((x) => x.type === 'ADDED' && x.object.metadata?.name === 'twice'));
    expect(w.contentType()).toBe(`${K8S};stream=watch`);
    w.close();
  });

  test('an ERROR event (410 Expired) carries a Protobuf Status', async () => {
    const api = c.apiserver;
    const rvOf = async (): Promise<number> => Number((await api.request('GET', cms)).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion);
    const old = await rvOf();
    await api.request('POST', cms, { body: { metadata: { name: 'after-old' } } });
    await api.request('POST', cms, { body: { metadata: { name: 'after-old-2' } } });
    await compactEtcd(c.etcd.endpoint, await rvOf());
    // A restarted apiserver's cache window begins after `old`, which etcd has compacted away.
    await api.stop();
    await api.start();
    const w = pbWatch(`${cms}?watch=true&resourceVersion=${old}`, `${PB};stream=watch`);
    const events = await w.waitFor((e) => e.some((x) => x.type === 'ERROR'));
    w.close();
    expect(events[0]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 } });
  });
});

describe('stock kubectl and Protobuf', () => {
  test('kubectl create ns / create sa send and receive application/vnd.kubernetes.protobuf', async () => {
    const ns = await c.apiserver.kubectl(['create', 'ns', 'pb-kubectl', '-v=8']);
    expect(ns.code).toBe(0);
    expect(ns.stdout).toContain('namespace/pb-kubectl created');
    expect(ns.stderr).toMatch(/Response Headers:[\s\S]*Content-Type: application\/vnd\.kubernetes\.protobuf/);
    const sa = await c.apiserver.kubectl(['create', 'sa', 'bot', '-n', 'pb-kubectl', '-v=8']);
    expect(sa.code).toBe(0);
    expect(sa.stdout).toContain('serviceaccount/bot created');
    expect(sa.stderr).toMatch(/Content-Type: application\/vnd\.kubernetes\.protobuf/);
    const exists = await c.apiserver.kubectl(['create', 'ns', 'pb-kubectl']);
    expect(exists.code).not.toBe(0);
    // The 409 Status arrived in Protobuf and kubectl printed its message.
    expect(exists.stderr).toContain('namespaces "pb-kubectl" already exists');
  });
});

// kubectl 1.27–1.31 send typed creates as JSON (`Accept: application/json, */*`); 1.32 and 1.33
// send Protobuf and accept `application/vnd.kubernetes.protobuf,application/json` (seen with -v=8).
describe.each([
  ['1.27', 'application/json'],
  ['1.28', 'application/json'],
  ['1.29', 'application/json'],
  ['1.30', 'application/json'],
  ['1.31', 'application/json'],
  ['1.32', K8S],
  ['1.33', K8S],
])('kubectl %s', (minor, answered) => {
  test(`typed create is answered as ${answered}; AlreadyExists is read back; delete`, async () => {
    const run = (args: string[]) => c.apiserver.kubectl(args, { binary: kubectlMinor(minor) });
    const ns = `pb-${minor.replace('.', '-')}`;
    const created = await run(['create', 'ns', ns, '-v=8']);
    expect(created.stdout).toContain(`namespace/${ns} created`);
    // -v=8 prints "Response Headers:" lines (≤1.32) or a "Response" record with headers=< (1.33).
    const responseType = /(?:Response Headers:|"Response" status=)[\s\S]*?Content-Type: (\S+)/.exec(created.stderr)?.[1];
    expect(responseType).toBe(answered);
    expect((await run(['create', 'sa', 'bot', '-n', ns])).stdout).toContain('serviceaccount/bot created');
    const again = await run(['create', 'sa', 'bot', '-n', ns]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('serviceaccounts "bot" already exists');
    expect((await run(['delete', 'ns', ns, '--wait=false'])).stdout).toContain(`namespace "${ns}" deleted`);
  });
});

test('kind schemas resolve every served kind and list kind', () => {
  for (const s of builtinStrategies) {
    expect(schemaFor(apiVersionOf(s.resource), s.resource.kind)).toBe(s.resource.schema);
    expect(schemaFor(apiVersionOf(s.resource), s.resource.listKind)).toBeDefined();
  }
});
