// Response conversions through the real server: Tables answered for writes as upstream's
// transformResponseObject does (create, update, patch, delete, deletecollection), and
// as=PartialObjectMetadata / PartialObjectMetadataList for get, list and watch in JSON, Protobuf
// and CBOR, under meta.svc.io and the meta.k8s.io spelling stock clients send.
import * as https from 'node:https';
import type { ObjectSchema } from '../../lib/api';
import { PartialObjectMetadataListSchema, PartialObjectMetadataSchema } from '../../lib/api';
import { decodeCBOR } from '../../lib/codec/cborDecode';
import { normalize } from '../../lib/codec/normalize';
import { decodeProtobufEnvelope, decodeProtobufObject } from '../../lib/codec/protobuf';
import { eventually, startCluster, TestCluster } from './support/apiserver';

let c: TestCluster;
beforeAll(async () => {
  c = await startCluster(['--feature-gates=CBORServingAndStorage=true']);
  expect((await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'conv' } } })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await c?.stop();
});

const cms = '/api/v1/namespaces/conv/configmaps';
const table = (g = 'meta.k8s.io', v = 'v1'): string => `application/json;as=Table;v=${v};g=${g}`;
const pom = (kind: string, type = 'application/json', g = 'meta.k8s.io', v = 'v1'): string => `${type};as=${kind};g=${g};v=${v}`;

interface TableBody {
  kind: string;
  apiVersion: string;
  metadata: Record<string, unknown>;
  columnDefinitions: { name: string }[] | null;
  rows: { cells: unknown[]; object: Record<string, unknown> | null }[] | null;
}

describe('Tables for writes (upstream converts every response)', () => {
  test('create, update, patch and delete answer a one-row Table when asked; a Status passes unchanged', async () => {
    const api = c.apiserver;
    const created = await api.request('POST', cms, { body: { metadata: { name: 'tw', labels: { a: '1' } }, data: { k: 'v' } }, headers: { Accept: table() } });
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe('application/json');
    const t = created.json<TableBody>();
    expect(t).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(t.columnDefinitions?.map((d) => d.name)).toEqual(['Name', 'Data', 'Age']);
    expect(t.rows).toHaveLength(1);
    expect(t.rows?.[0].cells.slice(0, 2)).toEqual(['tw', 1]);
    expect(t.rows?.[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'tw' } });
    expect(t.metadata.resourceVersion).toMatch(/^\d+$/);

    const current = (await api.request('GET', `${cms}/tw`)).json();
    const updated = await api.request('PUT', `${cms}/tw?includeObject=Object`, { body: { ...current, data: { k: 'v', l: 'w' } }, headers: { Accept: table('meta.svc.io', 'v1beta1') } });
    expect(updated.status).toBe(200);
    expect(updated.json<TableBody>()).toMatchObject({ kind: 'Table', apiVersion: 'meta.svc.io/v1beta1', rows: [{ cells: ['tw', 2, expect.any(String)], object: { kind: 'ConfigMap', data: { l: 'w' } } }] });

    const patched = await api.request('PATCH', `${cms}/tw?includeObject=None`, { body: { data: { m: 'x' } }, contentType: 'application/merge-patch+json', headers: { Accept: table() } });
    expect(patched.status).toBe(200);
    expect(patched.json<TableBody>()).toMatchObject({ kind: 'Table', rows: [{ cells: ['tw', 3, expect.any(String)], object: null }] });

    // A ConfigMap is gone at once: the answer is a Status, which no conversion touches.
    const deleted = await api.request('DELETE', `${cms}/tw`, { headers: { Accept: table() } });
    expect(deleted.status).toBe(200);
    expect(deleted.json()).toMatchObject({ kind: 'Status', status: 'Success' });
  });

  test('a namespace being finalized and a deletecollection answer Tables', async () => {
    const api = c.apiserver;
    expect((await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'conv-gone' } } })).status).toBe(201);
    const ns = await api.request('DELETE', '/api/v1/namespaces/conv-gone', { headers: { Accept: table() } });
    expect(ns.status).toBe(200);
    expect(ns.json<TableBody>()).toMatchObject({ kind: 'Table', rows: [{ cells: ['conv-gone', 'Terminating', expect.any(String)] }] });

    for (const name of ['dc-1', 'dc-2']) expect((await api.request('POST', cms, { body: { metadata: { name, labels: { dc: 'yes' } } } })).status).toBe(201);
    const dc = await api.request('DELETE', `${cms}?labelSelector=dc%3Dyes`, { headers: { Accept: table() } });
    expect(dc.status).toBe(200);
    const rows = dc.json<TableBody>().rows ?? [];
    expect(rows.map((r) => r.cells[0]).sort()).toEqual(['dc-1', 'dc-2']);
  });

  test('a bad includeObject on a write is a 400 after the write, as upstream', async () => {
    const api = c.apiserver;
    const r = await api.request('POST', `${cms}?includeObject=Everything`, { body: { metadata: { name: 'after-400' } }, headers: { Accept: table() } });
    expect(r.status).toBe(400);
    expect(r.json<{ message: string }>().message).toBe(`Unable to convert to Table as requested: includeObject: Invalid value: "Everything": must be 'Metadata', 'Object', 'None', or empty`);
    expect((await api.request('GET', `${cms}/after-400`)).status).toBe(200);
  });

  test('a create-only subresource (TokenRequest) has no Table: the clause is skipped', async () => {
    const api = c.apiserver;
    expect((await api.request('POST', '/api/v1/namespaces/conv/serviceaccounts', { body: { metadata: { name: 'tok' } } })).status).toBe(201);
    const r = await api.request('POST', '/api/v1/namespaces/conv/serviceaccounts/tok/token', {
      body: { apiVersion: 'authentication.svc.io/v1', kind: 'TokenRequest', spec: { audiences: ['x'] } },
      headers: { Accept: `${table()}, application/json` },
    });
    expect(r.status).toBe(201);
    expect(r.json()).toMatchObject({ kind: 'TokenRequest' });
  });
});

describe('PartialObjectMetadata', () => {
  beforeAll(async () => {
    for (const name of ['p-1', 'p-2', 'p-3']) {
      expect((await c.apiserver.request('POST', cms, { body: { metadata: { name, labels: { p: 'yes' } }, data: { secret: 'not in metadata' } } })).status).toBe(201);
    }
  });

  test('GET: the object metadata alone, in JSON, Protobuf and CBOR', async () => {
    const api = c.apiserver;
    const full = (await api.request('GET', `${cms}/p-1`)).json<{ metadata: Record<string, unknown> }>();
    const json = await api.request('GET', `${cms}/p-1`, { headers: { Accept: pom('PartialObjectMetadata') } });
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toBe('application/json');
    expect(json.json()).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: full.metadata });

    const pb = await api.request('GET', `${cms}/p-1`, { headers: { Accept: pom('PartialObjectMetadata', 'application/vnd.kubernetes.protobuf') } });
    expect(pb.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    const env = decodeProtobufEnvelope(pb.bytes);
    expect(env).toMatchObject({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata' });
    expect(normalize(decodeProtobufObject(env.raw, PartialObjectMetadataSchema), PartialObjectMetadataSchema)).toEqual({ metadata: full.metadata });

    const cb = await api.request('GET', `${cms}/p-1`, { headers: { Accept: pom('PartialObjectMetadata', 'application/cbor', 'meta.svc.io', 'v1beta1') } });
    expect(cb.headers['content-type']).toBe('application/cbor');
    const decoded = decodeCBOR(cb.bytes, PartialObjectMetadataSchema as ObjectSchema, true);
    expect(decoded.error).toBeUndefined();
    expect(normalize(decoded.value as object, PartialObjectMetadataSchema)).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.svc.io/v1beta1', metadata: full.metadata });
  });

  test('LIST: PartialObjectMetadataList keeps resourceVersion and continue; an empty list has items null', async () => {
    const api = c.apiserver;
    const page = await api.request('GET', `${cms}?labelSelector=p%3Dyes&limit=2`, { headers: { Accept: pom('PartialObjectMetadataList', 'application/json', 'meta.svc.io') } });
    expect(page.status).toBe(200);
    const body = page.json<{ kind: string; apiVersion: string; metadata: { resourceVersion: string; continue: string; remainingItemCount: number }; items: { kind: string; metadata: { name: string } }[] }>();
    expect(body).toMatchObject({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.svc.io/v1', metadata: { resourceVersion: expect.stringMatching(/^\d+$/), continue: expect.any(String) } });
    expect(body.items.map((i) => [i.kind, i.metadata.name])).toEqual([
      ['PartialObjectMetadata', 'p-1'],
      ['PartialObjectMetadata', 'p-2'],
    ]);
    expect(JSON.stringify(body)).not.toContain('not in metadata');
    const rest = await api.request('GET', `${cms}?labelSelector=p%3Dyes&limit=2&continue=${encodeURIComponent(body.metadata.continue)}`, { headers: { Accept: pom('PartialObjectMetadataList') } });
    expect(rest.json<{ items: { metadata: { name: string } }[] }>().items.map((i) => i.metadata.name)).toEqual(['p-3']);

    const empty = await api.request('GET', `${cms}?labelSelector=none%3Dhere`, { headers: { Accept: pom('PartialObjectMetadataList') } });
    expect(empty.body).toMatch(/"items":null/);

    const pb = await api.request('GET', `${cms}?labelSelector=p%3Dyes`, {
      headers: { Accept: `${pom('PartialObjectMetadataList', 'application/vnd.kubernetes.protobuf')},${pom('PartialObjectMetadataList')},application/json` },
    });
    expect(pb.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    const env = decodeProtobufEnvelope(pb.bytes);
    expect(env.kind).toBe('PartialObjectMetadataList');
    const list = decodeProtobufObject(env.raw, PartialObjectMetadataListSchema) as { items: { metadata: { name: string } }[] };
    expect(list.items.map((i) => i.metadata.name)).toEqual(['p-1', 'p-2', 'p-3']);
  });

  test('the wrong form is a 406 with upstream text; other groups or versions skip the clause', async () => {
    const api = c.apiserver;
    const onList = await api.request('GET', cms, { headers: { Accept: pom('PartialObjectMetadata') } });
    expect(onList.status).toBe(406);
    expect(onList.json<{ message: string }>().message).toBe('you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)');
    const onObject = await api.request('GET', `${cms}/p-1`, { headers: { Accept: pom('PartialObjectMetadataList') } });
    expect(onObject.status).toBe(406);
    expect(onObject.json<{ message: string }>().message).toBe('you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)');
    const v2 = await api.request('GET', `${cms}/p-1`, { headers: { Accept: `${pom('PartialObjectMetadata', 'application/json', 'meta.k8s.io', 'v2')}, application/json` } });
    expect(v2.json()).toMatchObject({ kind: 'ConfigMap' });
  });

  test('WATCH: each event carries PartialObjectMetadata', async () => {
    const api = c.apiserver;
    const events: { type: string; object: { kind: string; metadata: { name: string }; data?: unknown } }[] = [];
    const req = https.request(`${api.url}${cms}?watch=1&labelSelector=p%3Dyes`, { ...api.adminTls(), headers: { Accept: pom('PartialObjectMetadata') } }, (r) => {
      let buf = '';
      r.on('data', (d: Buffer) => {
        buf += d.toString();
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          events.push(JSON.parse(buf.slice(0, i)) as (typeof events)[number]);
          buf = buf.slice(i + 1);
        }
      });
    });
    req.end();
    try {
      await eventually(async () => events.length >= 3, 10_000, 'initial ADDED events');
      await api.request('POST', cms, { body: { metadata: { name: 'p-4', labels: { p: 'yes' } }, data: { secret: 'x' } } });
      await eventually(async () => events.some((e) => e.object.metadata.name === 'p-4'), 10_000, 'ADDED p-4');
    } finally {
      req.destroy();
    }
    expect(events.every((e) => e.object.kind === 'PartialObjectMetadata' && e.object.data === undefined)).toBe(true);
  });
});
