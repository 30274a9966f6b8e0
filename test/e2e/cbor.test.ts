// CBOR through raw HTTPS (wire-formats.md §6) with the alpha CBORServingAndStorage gate on and
// off: application/cbor objects, lists and Status errors (self-described tag first), CBOR
// create/update bodies, application/apply-patch+cbor, application/cbor-seq watches, the strict
// decoder's 400s, the 406/415 answers with upstream's lists, and stock client-go (kubectl with its
// CBOR client gates) decoding our CBOR lists and watch streams with the real fxamacker decoder.
import { execFile } from 'node:child_process';
import https from 'node:https';
import { gunzipSync } from 'node:zlib';
import { selfsubjectreviews, tokenRequestKind, TokenRequestSchema, type ObjectSchema } from '../../lib/api';
import { buildKindSchemas } from '../../lib/apiserver/kindSchemas';
import { decodeCBOR, interpretCBOR } from '../../lib/codec/cborDecode';
import { encodeCBOR } from '../../lib/codec/cborEncode';
import { splitCBORSequence } from '../../lib/codec/cborParse';
import { normalize } from '../../lib/codec/normalize';
import { builtinStrategies } from '../../lib/registry/builtin';
import { eventually, startCluster, TestCluster, type Response } from './support/apiserver';
import { connectH2, h2Request } from './support/h2client';
import { kubectlMinor } from './support/kubectlBinaries';
import { csrManifest, csrPath, signers } from './support/csrs';
import { makeCsr } from './support/openssl';

const CBOR = 'application/cbor';
const PB = 'application/vnd.svc.protobuf';
const schemaFor = buildKindSchemas(
  [...builtinStrategies.map((s) => s.resource), selfsubjectreviews],
  [{ schema: TokenRequestSchema, ...tokenRequestKind }],
);

let on: TestCluster;
let off: TestCluster;
beforeAll(async () => {
  [on, off] = await Promise.all([startCluster(['--feature-gates=CBORServingAndStorage=true']), startCluster()]);
  for (const c of [on, off]) expect((await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'cb' } } })).status).toBe(201);
}, 90_000);
afterAll(async () => {
  await Promise.all([on?.stop(), off?.stop()]);
});

type Obj = Record<string, unknown> & { kind?: string; apiVersion?: string; metadata?: Record<string, unknown>; items?: Obj[] };

/** A CBOR body as JSON: the 55799 tag first, then a strict decode by the body's own kind. */
function fromCbor(bytes: Uint8Array): Obj {
  expect([...bytes.subarray(0, 3)]).toEqual([0xd9, 0xd9, 0xf7]);
  const { apiVersion, kind } = interpretCBOR(bytes);
  const schema = schemaFor(apiVersion, kind) as ObjectSchema;
  expect(schema).toBeDefined();
  const r = decodeCBOR(bytes, schema, true);
  expect(r.error).toBeUndefined();
  expect(r.strictError).toBeUndefined();
  return normalize(r.value as Obj, schema) as Obj;
}

function cborResponse(r: Response): Obj {
  expect(r.headers['content-type']).toBe(CBOR);
  return fromCbor(r.bytes);
}

const toCbor = (obj: Obj): Buffer => encodeCBOR(obj, schemaFor(String(obj.apiVersion), String(obj.kind)));
const cms = '/api/v1/namespaces/cb/configmaps';
const asCbor = { headers: { Accept: CBOR } };

describe('CBOR with CBORServingAndStorage=true', () => {
  test('create, get, list, update, apply, patch and delete a ConfigMap in CBOR; each equals the JSON answer', async () => {
    const api = on.apiserver;
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app', labels: { b: '2', a: '1' } }, data: { k: 'v' }, binaryData: { bin: Buffer.from([0, 255]).toString('base64') } };
    const created = await api.request('POST', cms, { body: toCbor(cm), contentType: CBOR, ...asCbor });
    expect(created.status).toBe(201);
    const createdObj = cborResponse(created);
    expect(createdObj).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'app', namespace: 'cb', labels: { a: '1', b: '2' } }, data: { k: 'v' }, binaryData: cm.binaryData });
    // []byte values travel as tag 22 + raw bytes: 0xd6 0x42 0x00 0xff.
    expect(created.bytes.includes(Buffer.from([0xd6, 0x42, 0x00, 0xff]))).toBe(true);

    const asJson = (await api.request('GET', `${cms}/app`)).json();
    expect(cborResponse(await api.request('GET', `${cms}/app`, asCbor))).toEqual(asJson);
    expect(createdObj).toEqual(asJson);

    const list = cborResponse(await api.request('GET', cms, asCbor));
    expect(list.kind).toBe('ConfigMapList');
    expect(list.items).toEqual((await api.request('GET', cms)).json<Obj>().items);
    expect(list.metadata?.resourceVersion).toMatch(/^\d+$/);

    const updated = await api.request('PUT', `${cms}/app`, { body: toCbor({ ...asJson, data: { k: 'v2' } }), contentType: CBOR, ...asCbor });
    expect(updated.status).toBe(200);
    expect(cborResponse(updated)).toMatchObject({ data: { k: 'v2' } });

    const config = encodeCBOR({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app' }, data: { applied: 'yes' } }, undefined);
    const applied = await api.request('PATCH', `${cms}/app?fieldManager=cbor-test`, { body: config, contentType: 'application/apply-patch+cbor', ...asCbor });
    expect(applied.status).toBe(200);
    const appliedObj = cborResponse(applied);
    expect(appliedObj).toMatchObject({ data: { k: 'v2', applied: 'yes' } });
    expect((appliedObj.metadata?.managedFields as Obj[]).some((m) => m.manager === 'cbor-test' && m.operation === 'Apply')).toBe(true);

    const applyCreate = encodeCBOR({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'by-apply' } }, undefined);
    expect((await api.request('PATCH', `${cms}/by-apply?fieldManager=cbor-test`, { body: applyCreate, contentType: 'application/apply-patch+cbor', ...asCbor })).status).toBe(201);

    const patched = await api.request('PATCH', `${cms}/app`, { body: { data: { p: 'q' } }, contentType: 'application/merge-patch+json', ...asCbor });
    expect(patched.status).toBe(200);
    expect(cborResponse(patched)).toMatchObject({ data: { p: 'q' } });

    const deleted = await api.request('DELETE', `${cms}/app`, asCbor);
    expect(deleted.status).toBe(200);
    expect(cborResponse(deleted)).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Success', details: { name: 'app', kind: 'configmaps' } });
  });

  test('a CSR created in CBOR: spec.request travels as tag 22 + the PEM bytes and reads back as the JSON base64', async () => {
    const api = on.apiserver;
    const { csrPem } = makeCsr('ecdsa', '/CN=cbor-user');
    const manifest = csrManifest('cbor-csr', { request: csrPem, signerName: signers.client });
    const body = toCbor(manifest as Obj);
    // The raw PEM bytes after tag 22 (0xd6) and a byte-string head with a two-byte length (0x59).
    const at = body.indexOf(Buffer.from(csrPem));
    expect(at).toBeGreaterThan(0);
    expect([body[at - 4], body[at - 3], body.readUInt16BE(at - 2)]).toEqual([0xd6, 0x59, Buffer.byteLength(csrPem)]);
    const created = await api.request('POST', csrPath, { body, contentType: CBOR, ...asCbor });
    expect(created.status).toBe(201);
    const csr = cborResponse(created);
    expect(csr).toMatchObject({ kind: 'CertificateSigningRequest', spec: { request: Buffer.from(csrPem).toString('base64'), signerName: signers.client } });
    expect(cborResponse(await api.request('GET', `${csrPath}/cbor-csr`, asCbor))).toEqual((await api.request('GET', `${csrPath}/cbor-csr`)).json());
    const list = cborResponse(await api.request('GET', csrPath, asCbor));
    expect(list).toMatchObject({ kind: 'CertificateSigningRequestList', apiVersion: 'certificates.svc.io/v1' });
    expect(list.items?.map((i) => i.metadata?.name)).toContain('cbor-csr');
  });

  test('Status errors are CBOR: 404, 409, 422, 401/403 before routing, and the route 404', async () => {
    const api = on.apiserver;
    const missing = await api.request('GET', `${cms}/nothing`, asCbor);
    expect(missing.status).toBe(404);
    expect(cborResponse(missing)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "nothing" not found', reason: 'NotFound', details: { name: 'nothing', kind: 'configmaps' }, code: 404 });

    const body = toCbor({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice' } });
    expect((await api.request('POST', cms, { body, contentType: CBOR })).status).toBe(201);
    const conflict = await api.request('POST', cms, { body, contentType: CBOR, ...asCbor });
    expect(conflict.status).toBe(409);
    expect(cborResponse(conflict)).toMatchObject({ reason: 'AlreadyExists', code: 409 });

    const invalid = await api.request('POST', cms, { body: toCbor({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' } }), contentType: CBOR, ...asCbor });
    expect(invalid.status).toBe(422);
    expect(cborResponse(invalid)).toMatchObject({ reason: 'Invalid', code: 422, details: { causes: [{ field: 'metadata.name' }] } });

    const anonymous = await api.request('GET', cms, { anonymous: true, ...asCbor });
    expect([401, 403]).toContain(anonymous.status);
    expect(cborResponse(anonymous)).toMatchObject({ kind: 'Status', status: 'Failure', code: anonymous.status });
    const noRoute = await api.request('GET', '/apis/nothing.svc.io/v1/things', asCbor);
    expect(noRoute.status).toBe(404);
    expect(cborResponse(noRoute)).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  test('the strict decoder: malformed CBOR, duplicate keys and unknown fields are 400s with upstream texts', async () => {
    const api = on.apiserver;
    const post = (hex: string, query = ''): Promise<Response> => api.request('POST', `${cms}${query}`, { body: Buffer.from(hex.replace(/ /g, ''), 'hex'), contentType: CBOR });
    const truncated = await post('d9d9f7 a1');
    expect(truncated.status).toBe(400);
    expect(truncated.json()).toMatchObject({
      reason: 'BadRequest',
      message: 'the object provided is unrecognized (must be of type ConfigMap): unable to determine group/version/kind: unexpected EOF (d9d9f7a1)',
    });
    // {"metadata": {"name": "a", "name": "b"}}
    const dup = await post('a1 486d65746164617461 a2 446e616d65 4161 446e616d65 4162');
    expect(dup.status).toBe(400);
    expect(dup.json<{ message: string }>().message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: cbor: found duplicate map key "name" at map element index 1');
    // {"metadata": {"name": "u"}, "xyz": 1}
    const unknown = 'a2 486d65746164617461 a1 446e616d65 4175 43 78797a 01';
    const strict = await post(unknown, '?fieldValidation=Strict');
    expect(strict.status).toBe(400);
    expect(strict.json<{ message: string }>().message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: cbor: found unknown field at map element index 1');
    const warned = await post(unknown);
    expect(warned.status).toBe(201);
    expect(warned.headers.warning).toBe('299 - "cbor: found unknown field at map element index 1"');
    const indefinite = await post('d9d9f7 bf 486d65746164617461 bf 446e616d65 5f 4169 426e64 ff ff ff');
    expect(indefinite.status).toBe(201);
    expect(indefinite.json()).toMatchObject({ metadata: { name: 'ind' } });
    const badApply = await api.request('PATCH', `${cms}/twice?fieldManager=m`, { body: Buffer.from('a2416101416102', 'hex'), contentType: 'application/apply-patch+cbor' });
    expect(badApply.status).toBe(400);
    expect(badApply.json<{ message: string }>().message).toBe('error decoding patch: cbor: found duplicate map key "a" at map element index 1');
  });

  test('415 for JSON, merge and strategic patches sent as CBOR; 406 lists CBOR last; Tables stay JSON', async () => {
    const api = on.apiserver;
    const types = 'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml, application/apply-patch+cbor';
    for (const ct of [CBOR, 'application/merge-patch+cbor', 'application/json-patch+cbor', 'application/strategic-merge-patch+cbor']) {
      const r = await api.request('PATCH', `${cms}/twice`, { body: encodeCBOR({ data: { a: 'b' } }, undefined), contentType: ct });
      expect(r.status).toBe(415);
      expect(r.json<{ message: string }>().message).toBe(`the body of the request was in an unknown format - accepted media types include: ${types}`);
    }
    const badBody = await api.request('POST', cms, { body: 'x', contentType: 'text/plain' });
    expect(badBody.json<{ message: string }>().message).toBe(
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${PB}, ${CBOR}`,
    );
    const r = await api.request('GET', cms, { headers: { Accept: 'text/html' } });
    expect(r.status).toBe(406);
    expect(r.json<{ message: string }>().message).toBe(`only the following media types are accepted: application/json, application/yaml, ${PB}, ${CBOR}`);
    const seq = await api.request('GET', `${cms}?watch=true&timeoutSeconds=1`, { headers: { Accept: 'application/cbor-seq' } });
    expect(seq.status).toBe(406);
    expect(seq.json<{ message: string }>().message).toBe(`only the following media types are accepted: application/json;stream=watch, ${PB};stream=watch, application/cbor-seq`);
    const table = await api.request('GET', cms, { headers: { Accept: `${CBOR};as=Table;v=v1;g=meta.svc.io, ${CBOR}` } });
    expect(table.status).toBe(200);
    expect(cborResponse(table).kind).toBe('ConfigMapList');
    expect((await api.request('GET', cms, { headers: { Accept: '*/*' } })).headers['content-type']).toBe('application/json');
  });

  test('a CBOR list past the gzip threshold: the same bytes over HTTP/1.1, gzipped and HTTP/2, with their Content-Length, and the JSON list decoded', async () => {
    const api = on.apiserver;
    expect((await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'cb-big' } } })).status).toBe(201);
    const big = '/api/v1/namespaces/cb-big/configmaps';
    for (let i = 0; i < 150; i += 25) {
      const made = await Promise.all(Array.from({ length: 25 }, (_, j) => api.request('POST', big, { body: { metadata: { name: `cm-${i + j}` }, data: { pad: 'x'.repeat(1000) } } })));
      expect(made.map((r) => r.status)).toEqual(Array(25).fill(201));
    }
    const plain = await api.request('GET', big, asCbor);
    expect(plain.bytes.length).toBeGreaterThan(128 * 1024);
    expect(Number(plain.headers['content-length'])).toBe(plain.bytes.length);
    const list = cborResponse(plain);
    expect(list.items).toHaveLength(150);
    expect(list.items).toEqual((await api.request('GET', big)).json<Obj>().items);
    // Served again from the kept item encodings: the same bytes.
    expect((await api.request('GET', big, asCbor)).bytes.equals(plain.bytes)).toBe(true);
    const gz = await api.request('GET', big, { headers: { Accept: CBOR, 'Accept-Encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.bytes).equals(plain.bytes)).toBe(true);
    const session = connectH2(api);
    try {
      const h2 = await h2Request(session, 'GET', big, { headers: { accept: CBOR } });
      expect(h2.headers[':status']).toBe(200);
      expect(Number(h2.headers['content-length'])).toBe(plain.bytes.length);
      expect(h2.body.equals(plain.bytes)).toBe(true);
    } finally {
      session.close();
    }
  });

  test('watch with Accept application/cbor is an application/cbor-seq stream, one WatchEvent per item', async () => {
    const api = on.apiserver;
    const sas = '/api/v1/namespaces/cb/serviceaccounts';
    const events: { type: string; object: Obj }[] = [];
    let contentType: string | undefined;
    let buf: Uint8Array = new Uint8Array(0);
    const req = https.request(`${api.url}${sas}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`, { ...api.adminTls(), headers: { Accept: CBOR } }, (res) => {
      contentType = res.headers['content-type'];
      res.on('data', (chunk: Buffer) => {
        const { items, rest } = splitCBORSequence(Buffer.concat([buf, chunk]));
        buf = Uint8Array.from(rest);
        for (const item of items) {
          const ev = decodeCBOR(item, { name: 'io.svc.test.WatchEvent', fields: { type: { type: 'string' }, object: { type: 'any' } } }, true);
          expect(ev.error).toBeUndefined();
          // The embedded object is a complete body with its own tag: re-encode it to check, then decode.
          const body = Buffer.from(item);
          const objStart = body.indexOf(Buffer.from([0x46, 0x6f, 0x62, 0x6a, 0x65, 0x63, 0x74])) + 7;
          events.push({ type: (ev.value as { type: string }).type, object: fromCbor(body.subarray(objStart)) });
        }
      });
      res.on('error', () => undefined);
    });
    req.on('error', () => undefined);
    req.end();
    const waitFor = async (pred: () => boolean): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (!pred()) {
        if (Date.now() > deadline) throw new Error(`watch condition not met: ${JSON.stringify(events.map((e) => e.type))}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await waitFor(() => events.some((e) => e.type === 'BOOKMARK'));
    expect(contentType).toBe('application/cbor-seq');
    expect((await api.request('POST', sas, { body: toCbor({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'watched' } }), contentType: CBOR })).status).toBe(201);
    await api.request('PATCH', `${sas}/watched`, { body: { metadata: { labels: { x: 'y' } } }, contentType: 'application/merge-patch+json' });
    await api.request('DELETE', `${sas}/watched`);
    await waitFor(() => events.some((e) => e.type === 'DELETED' && e.object.metadata?.name === 'watched'));
    req.destroy();
    const mine = events.filter((e) => e.object.metadata?.name === 'watched');
    expect(mine.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(mine[1].object).toMatchObject({ kind: 'ServiceAccount', apiVersion: 'v1', metadata: { labels: { x: 'y' } } });
  });
});

describe('stock kubectl (client-go with ClientsAllowCBOR and ClientsPreferCBOR) reads our CBOR', () => {
  test.each(['1.32', '1.33'])('kubectl %s wait: the dynamic client lists in application/cbor and watches in application/cbor-seq', async (minor) => {
    const api = on.apiserver;
    const name = `kc-${minor.replace('.', '-')}`;
    expect((await api.request('POST', cms, { body: { metadata: { name }, data: { a: 'b' } } })).status).toBe(201);
    let out = '';
    const done = new Promise<number>((resolve) => {
      const child = execFile(
        kubectlMinor(minor),
        [`--kubeconfig=${api.kubeconfig}`, 'wait', `--for=jsonpath={.data.a}=c`, `cm/${name}`, '-n', 'cb', '--timeout=30s', '-v=8'],
        { env: { ...process.env, KUBE_FEATURE_ClientsAllowCBOR: 'true', KUBE_FEATURE_ClientsPreferCBOR: 'true' }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
        (err) => resolve(err ? Number((err as { code?: number }).code ?? 1) : 0),
      );
      child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    });
    // The watch is open once client-go logged its response headers.
    await eventually(async () => /Content-Type: application\/cbor-seq/.test(out), 20_000, `kubectl's CBOR watch (got: ${out.slice(-2000)})`);
    expect((await api.request('PATCH', `${cms}/${name}`, { body: { data: { a: 'c' } }, contentType: 'application/merge-patch+json' })).status).toBe(200);
    expect(await done).toBe(0);
    expect(out).toContain(`configmap/${name} condition met`);
    expect(out).toMatch(/Accept: application\/json;q=0.9,application\/cbor;q=1/);
    expect(out).toMatch(/Content-Type: application\/cbor\n/);
  });
});

describe('CBOR with the gate off (the default)', () => {
  test('Accept application/cbor is a 406 listing three types; a CBOR body is a 415; CBOR apply is a 415', async () => {
    const api = off.apiserver;
    const r = await api.request('GET', cms, asCbor);
    expect(r.status).toBe(406);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json<{ message: string }>().message).toBe(`only the following media types are accepted: application/json, application/yaml, ${PB}`);
    const w = await api.request('GET', `${cms}?watch=true&timeoutSeconds=1`, asCbor);
    expect(w.status).toBe(406);
    expect(w.json<{ message: string }>().message).toBe(`only the following media types are accepted: application/json;stream=watch, ${PB};stream=watch`);
    const body = toCbor({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'off' } });
    const created = await api.request('POST', cms, { body, contentType: CBOR });
    expect(created.status).toBe(415);
    expect(created.json()).toMatchObject({
      reason: 'UnsupportedMediaType',
      message: `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${PB}`,
    });
    const apply = await api.request('PATCH', `${cms}/off`, { body, contentType: 'application/apply-patch+cbor' });
    expect(apply.status).toBe(415);
    expect(apply.json<{ message: string }>().message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
  });
});
