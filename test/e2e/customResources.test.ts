// Custom resources served from CustomResourceDefinitions, on the built server against etcd, as
// operators and their test suites use them: kubectl (every minor 1.27–1.33 for discovery, short
// names, categories, explain, server-side apply and client-side validation), client-node's
// KubernetesObjectApi, python's DynamicClient, raw HTTPS for the wire details (422 field paths,
// /status, 415 for strategic merge, Protobuf negotiation, watches ended by the CRD's removal), two
// replicas that agree, a replica started later, deletion through the cleanup finalizer, and
// hostile input (a pattern built for backtracking engines, a deep object).
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiServerProcess, eventually, freePort, startCluster, type TestCluster } from './support/apiserver';
import { kubectlMinor } from './support/kubectlBinaries';
import { failures, runSteps } from './support/stockClients';

let c: TestCluster;
let second: ApiServerProcess | undefined;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await second?.stop();
  await c?.stop();
});

async function ok(args: string[], binary?: string, input?: string): Promise<string> {
  const r = await c.apiserver.kubectl(args, { binary, input });
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

const widgetsCrd = (extra = ''): string => `apiVersion: apiextensions.svc.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd], categories: [tools]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}, scale: {specReplicasPath: .spec.size, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}}
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Color, type: string, jsonPath: .spec.color}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: What the widget should be.
            required: [size]
            properties:
              size: {type: integer, minimum: 1, maximum: 10, description: How many parts.}
              color: {type: string, enum: [red, blue], default: red}
              name: {type: string, pattern: '^(a+)+$'}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port]
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer}
                    protocol: {type: string}
          status:
            type: object
            properties:
              ready: {type: boolean}
              replicas: {type: integer}
              selector: {type: string}
${extra}`;

/** etcdctl against the test's etcd: what the apiserver stored, read without it. */
const etcdctl = (args: string[]): Promise<string> =>
  new Promise((resolve, reject) => execFile('etcdctl', [`--endpoints=${c.etcd.endpoint}`, ...args], (e, out) => (e ? reject(e) : resolve(out))));

const established = (server: ApiServerProcess): Promise<boolean> =>
  eventually(async () => (await server.request('GET', '/apis/example.com/v1')).status === 200, 10_000, 'the CRD served');

const collection = '/apis/example.com/v1/namespaces/default/widgets';
const widget = (name: string, spec: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec });

describe('a CRD becomes a served resource', () => {
  beforeAll(async () => {
    const file = join(c.dir, 'widgets.yaml');
    writeFileSync(file, widgetsCrd());
    await ok(['apply', '-f', file]);
    await established(c.apiserver);
  });

  test('its status says NamesAccepted and Established, with the accepted names and stored version', async () => {
    const crd = (await c.apiserver.request('GET', '/apis/apiextensions.svc.io/v1/customresourcedefinitions/widgets.example.com')).json<{
      status: { conditions: { type: string; status: string; reason: string }[]; acceptedNames: Record<string, unknown>; storedVersions: string[] };
    }>();
    expect(crd.status.conditions.map((x) => [x.type, x.status, x.reason])).toEqual([
      ['NamesAccepted', 'True', 'NoConflicts'],
      ['Established', 'True', 'InitialNamesAccepted'],
    ]);
    expect(crd.status.acceptedNames).toEqual({ categories: ['tools'], kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', shortNames: ['wd'], singular: 'widget' });
    expect(crd.status.storedVersions).toEqual(['v1']);
  });

  test('create with defaults, get with its printer columns, by short name and category; stored under <group>/<plural>', async () => {
    await ok(['apply', '-f', '-'], undefined, JSON.stringify(widget('w1', { size: 3 })));
    expect(await ok(['get', 'wd'])).toMatch(/^NAME\s+SIZE\s+COLOR\s+AGE\nw1\s+3\s+red\s+\d+s\n$/);
    // The category expands to the one resource in it (kubectl prints no type prefix for one type).
    expect(await ok(['get', 'tools'])).toMatch(/^NAME\s+SIZE\s+COLOR\s+AGE\nw1\s+3\s+red\s+/);
    const got = (await c.apiserver.request('GET', `${collection}/w1`)).json<{ spec: unknown; metadata: { generation: number } }>();
    expect(got.spec).toEqual({ color: 'red', size: 3 });
    expect(got.metadata.generation).toBe(1);
    const keys = await etcdctl(['get', '--prefix', '--keys-only', '/registry/example.com/widgets/']);
    expect(keys.trim()).toBe('/registry/example.com/widgets/default/w1');
  });

  test.each(['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'])('kubectl %s: api-resources, short name, explain, server-side apply, client-side validation', async (minor) => {
    const k = kubectlMinor(minor);
    expect(await ok(['api-resources', '--api-group=example.com'], k)).toMatch(/widgets\s+wd\s+example\.com\/v1\s+true\s+Widget/);
    expect(await ok(['get', 'wd', 'w1', '-o', 'name'], k)).toBe('widget.example.com/w1\n');
    const explain = await ok(['explain', 'widgets.spec.size'], k);
    expect(explain).toContain('How many parts.');
    expect(explain).toMatch(/<integer>/);
    const name = `ssa-${minor.replace('.', '-')}`;
    expect(await ok(['apply', '--server-side', '-f', '-'], k, JSON.stringify(widget(name, { size: 2, ports: [{ port: 80 }] })))).toContain(`widget.example.com/${name} serverside-applied`);
    // A second manager adds a port to the list-map: both entries stay (merged by key, not replaced).
    await ok(['apply', '--server-side', '--field-manager=other', '-f', '-'], k, JSON.stringify(widget(name, { size: 2, ports: [{ port: 443 }] })));
    const ports = JSON.parse(await ok(['get', 'wd', name, '-o', 'jsonpath={.spec.ports}'], k)) as { port: number }[];
    expect(ports.map((p) => p.port).sort((a, b) => a - b)).toEqual([80, 443]);
    // Client-side validation from the published schema refuses an unknown field before sending.
    const bad = await c.apiserver.kubectl(['create', '--validate=strict', '-f', '-'], { binary: k, input: JSON.stringify(widget(`${name}-x`, { size: 2, bogus: 1 })) });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('unknown field "spec.bogus"');
  });

  test('list items carry apiVersion and kind (unstructured lists), in JSON and YAML', async () => {
    const json = (await c.apiserver.request('GET', collection)).json<{ kind: string; items: { apiVersion: string; kind: string }[] }>();
    expect(json.kind).toBe('WidgetList');
    expect(json.items.length).toBeGreaterThan(0);
    for (const item of json.items) expect([item.apiVersion, item.kind]).toEqual(['example.com/v1', 'Widget']);
    const yaml = await c.apiserver.request('GET', collection, { headers: { Accept: 'application/yaml' } });
    expect(yaml.body).toMatch(/^\s*- apiVersion: example\.com\/v1\n\s+kind: Widget\n/m);
  });

  test('a custom resource that violates its schema: 422 with every field path, nothing stored', async () => {
    const r = await c.apiserver.request('POST', collection, { body: widget('bad', { size: 30, color: 'green' }) });
    expect(r.status).toBe(422);
    const status = r.json<{ reason: string; details: { causes: { field: string; reason: string }[] } }>();
    expect(status.reason).toBe('Invalid');
    expect(status.details.causes.map((x) => [x.reason, x.field])).toEqual([
      ['FieldValueNotSupported', 'spec.color'],
      ['FieldValueInvalid', 'spec.size'],
    ]);
    expect((await c.apiserver.request('GET', `${collection}/bad`)).status).toBe(404);
  });

  test('a pattern made for backtracking engines is matched in linear time (RE2): refused, the server answers', async () => {
    const r = await c.apiserver.request('POST', collection, { body: widget('redos', { size: 1, name: `${'a'.repeat(5000)}!` }) });
    expect(r.status).toBe(422);
    expect(r.body).toContain("spec.name in body should match '^(a+)+$'");
    expect((await c.apiserver.request('GET', '/livez')).status).toBe(200);
  });

  test('a custom resource nested deeper than the decoder allows is a 4xx, never a 500', async () => {
    const deep = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"deep"},"spec":{"size":1,"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    const r = await c.apiserver.request('POST', collection, { body: deep });
    expect([400, 422]).toContain(r.status);
    expect(r.json<{ kind: string }>().kind).toBe('Status');
  });

  test('a 10 MB custom resource is refused with 413 before it is decoded', async () => {
    const r = await c.apiserver.request('POST', collection, { body: JSON.stringify(widget('huge', { size: 1, name: 'a'.repeat(10 * 1024 * 1024) })) });
    expect(r.status).toBe(413);
    expect(r.json<{ reason: string; message: string }>()).toMatchObject({ reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' });
  });

  test('/status: the main resource ignores status, /status ignores the rest; generation moves with spec only', async () => {
    await c.apiserver.request('POST', collection, { body: { ...widget('st', { size: 1 }), status: { ready: true } } });
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    let r = await c.apiserver.request('PATCH', `${collection}/st`, { body: JSON.stringify({ spec: { size: 2 }, status: { ready: true } }), contentType: merge['Content-Type'] });
    expect(r.json<{ status?: unknown; metadata: { generation: number } }>()).toMatchObject({ metadata: { generation: 2 } });
    expect(r.json<{ status?: unknown }>().status).toBeUndefined();
    r = await c.apiserver.request('PATCH', `${collection}/st/status`, { body: JSON.stringify({ spec: { size: 9 }, status: { ready: true } }), contentType: merge['Content-Type'] });
    expect(r.json<{ spec: { size: number }; status: unknown; metadata: { generation: number } }>()).toMatchObject({ spec: { size: 2 }, status: { ready: true }, metadata: { generation: 2 } });
  });

  test('/scale: kubectl scale writes spec through the CRD\'s path; the Scale reads spec, status and selector', async () => {
    await c.apiserver.request('POST', collection, { body: widget('sc', { size: 1 }) });
    await c.apiserver.request('PATCH', `${collection}/sc/status`, { body: JSON.stringify({ status: { replicas: 1, selector: 'app=sc' } }), contentType: 'application/merge-patch+json' });
    expect(await ok(['scale', 'widget', 'sc', '--replicas=4'])).toContain('widget.example.com/sc scaled');
    const scale = (await c.apiserver.request('GET', `${collection}/sc/scale`)).json<Record<string, unknown>>();
    expect(scale).toMatchObject({ apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 4 }, status: { replicas: 1, selector: 'app=sc' } });
    const cr = (await c.apiserver.request('GET', `${collection}/sc`)).json<{ spec: { size: number }; metadata: { generation: number } }>();
    expect([cr.spec.size, cr.metadata.generation]).toEqual([4, 2]);
    // Beyond the schema's maximum: the custom resource's own validation refuses the write.
    const r = await c.apiserver.request('PUT', `${collection}/sc/scale`, { body: { ...scale, spec: { replicas: 11 } } });
    expect(r.status).toBe(422);
  });

  test('strategic merge patch is a 415 listing the patch types custom resources take', async () => {
    const r = await c.apiserver.request('PATCH', `${collection}/w1`, { body: '{"spec":{"size":4}}', contentType: 'application/strategic-merge-patch+json' });
    expect(r.status).toBe(415);
    expect(r.json<{ message: string }>().message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  test('Protobuf: not for the objects (JSON when offered, else 406), but for PartialObjectMetadata', async () => {
    const both = await c.apiserver.request('GET', `${collection}/w1`, { headers: { Accept: 'application/vnd.svc.protobuf, application/json' } });
    expect([both.status, both.headers['content-type']]).toEqual([200, 'application/json']);
    const only = await c.apiserver.request('GET', `${collection}/w1`, { headers: { Accept: 'application/vnd.svc.protobuf' } });
    expect(only.status).toBe(406);
    const partial = await c.apiserver.request('GET', `${collection}/w1`, { headers: { Accept: 'application/vnd.svc.protobuf;as=PartialObjectMetadata;g=meta.svc.io;v=v1' } });
    expect([partial.status, partial.headers['content-type']]).toEqual([200, 'application/vnd.svc.protobuf']);
  });

  test("@kubernetes/client-node's KubernetesObjectApi and python's DynamicClient", async () => {
    const nodeSteps = await runSteps('node', 'customResources', [c.apiserver.kubeconfig, 'default']);
    expect(failures(nodeSteps)).toEqual({});
    expect(nodeSteps.map((s) => [s.step, s.value])).toEqual([
      ['create', 'red'],
      ['read', 3],
      ['patch (merge)', 2],
      ['list', expect.arrayContaining(['node', 'w1'])],
      ['delete', true],
    ]);
    const py = await runSteps('python', 'customResources', [c.apiserver.kubeconfig, 'default']);
    expect(failures(py)).toEqual({});
    expect(py.map((s) => [s.step, s.value])).toEqual([
      ['create', 'red'],
      ['get', 2],
      ['patch', 2],
      ['status', true],
      ['list', expect.arrayContaining(['py', 'w1'])],
      ['delete', 'Success'],
    ]);
  });

  test('a second replica serves a CRD created through the first, and one started later serves it before it is ready', async () => {
    second = new ApiServerProcess(mkdtempSync(join(c.dir, 'replica-')), await freePort(), c.etcd.endpoint, [], join(c.dir, 'pki'));
    await second.start();
    // Started after the CRD: ready means serving it.
    expect((await second.request('GET', `${collection}/w1`)).status).toBe(200);
    const file = join(c.dir, 'gadgets.yaml');
    writeFileSync(file, widgetsCrd().replace(/widgets/g, 'gadgets').replace(/widget/g, 'gadget').replace('Widget', 'Gadget').replace('[wd]', '[gd]'));
    await ok(['apply', '-f', file]);
    await eventually(async () => (await second!.request('GET', '/apis/example.com/v1/namespaces/default/gadgets')).status === 200, 10_000, 'gadgets on the second replica');
  });
});

describe('several versions (conversion None) and selectable fields', () => {
  const things = `apiVersion: apiextensions.svc.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {plural: things, kind: Thing}
  versions:
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    selectableFields: [{jsonPath: .spec.color}]
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {color: {type: string}}}}}}
  - name: v1
    served: true
    storage: true
    selectableFields: [{jsonPath: .spec.color}]
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {color: {type: string}}}}}}
`;
  beforeAll(async () => {
    await ok(['apply', '-f', '-'], undefined, things);
    await eventually(async () => (await c.apiserver.request('GET', '/apis/example.com/v1beta1/things')).status === 200, 10_000, 'things served');
  });

  test('written through the deprecated version (with its Warning), stored in the storage version, read in either', async () => {
    const r = await c.apiserver.kubectl(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'example.com/v1beta1', kind: 'Thing', metadata: { name: 't1' }, spec: { color: 'red' } }) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Warning: example.com/v1beta1 Thing is deprecated; use example.com/v1 Thing');
    expect(await ok(['get', 'things.v1beta1.example.com', 't1', '-o', 'jsonpath={.apiVersion}'])).toBe('example.com/v1beta1');
    expect(await ok(['get', 'things.v1.example.com', 't1', '-o', 'jsonpath={.apiVersion}'])).toBe('example.com/v1');
    const stored = await etcdctl(['get', '--print-value-only', '/registry/example.com/things/t1']);
    expect(JSON.parse(stored)).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Thing', spec: { color: 'red' } });
  });

  test('field selectors on metadata.name and on a selectable field', async () => {
    await ok(['create', '-f', '-'], undefined, JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't2' }, spec: { color: 'blue' } }));
    expect(await ok(['get', 'things', '--field-selector', 'spec.color=blue', '-o', 'name'])).toBe('thing.example.com/t2\n');
    expect(await ok(['get', 'things', '--field-selector', 'metadata.name=t1', '-o', 'name'])).toBe('thing.example.com/t1\n');
    const r = await c.apiserver.request('GET', '/apis/example.com/v1/things?fieldSelector=spec.size%3D1');
    expect(r.status).toBe(400);
    expect(r.json<{ message: string }>().message).toContain('"spec.size" is not a known field selector');
  });
});

describe('admission policies and custom resources', () => {
  test('a ValidatingAdmissionPolicy matches a custom resource and takes another as its parameter', async () => {
    await ok(['apply', '-f', '-'], undefined, `apiVersion: apiextensions.svc.io/v1
kind: CustomResourceDefinition
metadata: {name: widgetlimits.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {plural: widgetlimits, kind: WidgetLimit}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {max: {type: integer}}}}}}
`);
    await eventually(async () => (await c.apiserver.request('GET', '/apis/example.com/v1/widgetlimits')).status === 200, 10_000, 'widgetlimits served');
    await ok(['apply', '-f', '-'], undefined, `apiVersion: example.com/v1
kind: WidgetLimit
metadata: {name: limit}
spec: {max: 4}
---
apiVersion: admissionregistration.svc.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: widget-size}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: example.com/v1, kind: WidgetLimit}
  matchConstraints:
    resourceRules: [{apiGroups: [example.com], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [widgets]}]
  validations:
  - expression: object.spec.size <= params.spec.max
    message: too big for the limit
---
apiVersion: admissionregistration.svc.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: widget-size}
spec:
  policyName: widget-size
  paramRef: {name: limit, parameterNotFoundAction: Deny}
  validationActions: [Deny]
`);
    const denied = await eventually(async () => {
      const r = await c.apiserver.request('POST', collection, { body: widget('too-big', { size: 5 }) });
      return r.status === 422 && r;
    }, 10_000, 'the policy denying');
    expect(denied.json<{ message: string }>().message).toContain("ValidatingAdmissionPolicy 'widget-size' with binding 'widget-size' denied request: too big for the limit");
    expect((await c.apiserver.request('POST', collection, { body: widget('small', { size: 4 }) })).status).toBe(201);
    await ok(['delete', 'validatingadmissionpolicybinding', 'widget-size']);
  });
});

describe('deleting a CRD', () => {
  test('ends its watches, deletes its custom resources through the finalizer, and a CRD created again starts empty', async () => {
    const gadgets = '/apis/example.com/v1/namespaces/default/gadgets';
    for (const n of ['a', 'b']) expect((await c.apiserver.request('POST', gadgets, { body: { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: n }, spec: { size: 1 } } })).status).toBe(201);
    const w = c.apiserver.watch(`${gadgets}?watch=1`);
    await w.waitFor((ev) => ev.length >= 2);
    const del = await c.apiserver.request('DELETE', '/apis/apiextensions.svc.io/v1/customresourcedefinitions/gadgets.example.com');
    expect(del.status).toBe(200);
    await eventually(async () => (await c.apiserver.request('GET', '/apis/apiextensions.svc.io/v1/customresourcedefinitions/gadgets.example.com')).status === 404, 10_000, 'the CRD gone');
    await eventually(async () => w.ended, 10_000, 'the watch ended');
    const keys = await etcdctl(['get', '--prefix', '--keys-only', '/registry/example.com/gadgets/']);
    expect(keys.trim()).toBe('');
    expect((await c.apiserver.request('GET', gadgets)).status).toBe(404);
  });
});
