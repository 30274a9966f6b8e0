// The schema's serverSet and immutable markers as the store enforces them: every marked field of
// every built-in kind (found by walking the schemas, through every update endpoint), a test-only
// kind that shows each rule on its own, and the marker walk itself.
import { MemoryStorage } from '../etcd/memory';
import { defineObject, ObjectMetaSchema, RoleBindingSchema, s, type ApiObject, type FieldSchema, type ResourceInfo } from '../api';
import { ApiError, isApiError } from '../machinery/errors';
import { renderFieldError } from '../machinery/fieldErrors';
import { builtinStrategies } from './builtin';
import { b64, makeRequestPem } from './certificatesigningrequests/testing/fixtures';
import { DefaultStrategy } from './defaultStrategy';
import { immutableDetail, immutableErrors, schemaMarkers, valueAt, type MarkedField } from './schemaMarkers';
import { GenericStore } from './store';
import type { RequestContext, Strategy } from './strategy';

const now = new Date('2026-01-10T08:05:00Z');
const user = { name: 'admin', groups: ['system:masters'] };

function ctx(strategy: Strategy, subresource = ''): RequestContext {
  return { user, namespace: strategy.resource.namespaced ? 'team' : '', subresource, dryRun: false, now: () => now };
}

function storeOf(strategy: Strategy): GenericStore {
  return new GenericStore({ storage: new MemoryStorage(), strategy, prefix: '/registry' });
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (isApiError(e)) return e;
    throw e;
  }
  throw new Error('expected the request to fail');
}

/** A value of the field's type that no server or fixture would choose. */
function sampleOf(field: FieldSchema, depth = 0): unknown {
  switch (field.type) {
    case 'string':
      if (field.format === 'byte') return Buffer.from('client-sent').toString('base64');
      if (field.format === 'date-time') return '2001-02-03T04:05:06Z';
      return 'client-sent';
    case 'integer':
      return 4242;
    case 'boolean':
      return true;
    case 'array':
      return [sampleOf(field.items, depth + 1)];
    case 'map':
      return { 'client-key': sampleOf(field.values, depth + 1) };
    case 'object':
      return depth > 3 ? {} : Object.fromEntries(Object.entries(field.ref().fields).map(([n, f]) => [n, sampleOf(f, depth + 1)]));
    case 'any':
      return { client: 'sent' };
  }
}

function setAt(obj: ApiObject, path: readonly string[], value: unknown): ApiObject {
  const copy = structuredClone(obj) as Record<string, unknown>;
  let parent = copy;
  for (const name of path.slice(0, -1)) parent = (parent[name] ??= {}) as Record<string, unknown>;
  parent[path[path.length - 1]] = value;
  return copy as ApiObject;
}

/** A valid object of each built-in kind that has markers (a new marked kind needs one here). */
const fixtures: Record<string, () => ApiObject> = {
  certificatesigningrequests: () => ({
    metadata: { name: 'req' },
    spec: { request: b64(makeRequestPem('ec256')), signerName: 'example.com/signer', usages: ['client auth'] },
  }),
  rolebindings: () => ({ metadata: { name: 'readers' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice' }] }),
  clusterrolebindings: () => ({ metadata: { name: 'readers' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice' }] }),
};

function fixtureOf(strategy: Strategy): ApiObject {
  const make = fixtures[strategy.resource.resource];
  if (!make) throw new Error(`${strategy.resource.resource} has schema markers: add a valid object to the fixtures`);
  return make();
}

type Case = [marker: 'serverSet' | 'immutable', resource: string, path: string, strategy: Strategy, marked: MarkedField];

/** Every marked field of every built-in kind, from the schemas. */
const cases: Case[] = builtinStrategies.flatMap((strategy) => {
  const markers = schemaMarkers(strategy.resource.schema);
  const label = `${strategy.resource.resource}.${strategy.resource.version}`;
  return [
    ...markers.serverSet.map((m): Case => ['serverSet', label, m.path.join('.'), strategy, m]),
    ...markers.immutable.map((m): Case => ['immutable', label, m.path.join('.'), strategy, m]),
  ];
});

const endpointsOf = (strategy: Strategy): string[] => ['', ...Object.keys(strategy.subresourceStrategies)];

describe('the built-in kinds’ markers, through the store', () => {
  it('the schemas mark some fields (the table below is not empty)', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  const serverSet = cases.filter((c) => c[0] === 'serverSet');
  it.each(serverSet)('%s %s.%s: a client value is dropped on create and the stored one kept by every endpoint', async (_m, _r, _p, strategy, marked) => {
    const store = storeOf(strategy);
    const sent = sampleOf(marked.field);
    const created = await store.create(ctx(strategy), setAt(fixtureOf(strategy), marked.path, sent));
    expect(valueAt(created, marked.path)).not.toEqual(sent);
    const name = created.metadata!.name!;
    for (const endpoint of endpointsOf(strategy)) {
      const before = valueAt(await store.get(ctx(strategy), name), marked.path);
      const { obj } = await store.update(ctx(strategy, endpoint), name, (cur) => setAt(cur!, marked.path, sent));
      expect([endpoint, valueAt(obj, marked.path)]).toEqual([endpoint, before]);
    }
  });

  const immutable = cases.filter((c) => c[0] === 'immutable');
  it.each(immutable)('%s %s.%s: a change is refused (422, the field path) by every endpoint', async (_m, _r, path, strategy, marked) => {
    const store = storeOf(strategy);
    const created = await store.create(ctx(strategy), fixtureOf(strategy));
    const detail = typeof marked.field.immutable === 'object' ? marked.field.immutable.detail : immutableDetail;
    for (const endpoint of endpointsOf(strategy)) {
      const e = await failure(store.update(ctx(strategy, endpoint), created.metadata!.name!, (cur) => setAt(cur!, marked.path, sampleOf(marked.field))));
      expect(e.code).toBe(422);
      const cause = e.status.details?.causes?.find((c) => c.field === path);
      expect(cause).toMatchObject({ reason: 'FieldValueInvalid' });
      expect(cause?.message).toMatch(new RegExp(`^Invalid value: .*: ${detail}$`));
    }
  });
});

// A test-only kind: each marker on its own, and the order against the kind's own hooks.
const ShapeSchema = defineObject({ name: 'io.test.Shape', fields: { sides: s.int32({ alwaysEmit: true }), name: s.string({ alwaysEmit: true }) } });
const WidgetSpecSchema = defineObject({
  name: 'io.test.WidgetSpec',
  fields: {
    size: s.int32(),
    owner: s.string({ serverSet: true }),
    color: s.string({ immutable: true }),
    shape: s.object(() => ShapeSchema, { immutable: { detail: 'cannot change shape', goStruct: { sides: 'Sides', name: 'Name' } } }),
  },
});
const WidgetSchema = defineObject({
  name: 'io.test.Widget',
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema, { alwaysEmit: true }),
    spec: s.object(() => WidgetSpecSchema),
    status: s.object(() => defineObject({ name: 'io.test.WidgetStatus', fields: { seen: s.string({ serverSet: true }) } })),
  },
});
const widgets: ResourceInfo = {
  group: 'test.io',
  version: 'v1',
  kind: 'Widget',
  listKind: 'WidgetList',
  resource: 'widgets',
  singular: 'widget',
  shortNames: [],
  namespaced: false,
  verbs: ['create', 'get', 'update'],
  schema: WidgetSchema,
  subresources: [],
};
type Widget = ApiObject & { spec?: { size?: number; owner?: string; color?: string; shape?: { sides?: number; name?: string } }; status?: { seen?: string } };

/** Fills the owner only where none is set: the client's must already be gone. */
class WidgetStrategy extends DefaultStrategy<Widget> {
  readonly resource = widgets;
  override prepareForCreate(c: RequestContext, obj: Widget): void {
    (obj.spec ??= {}).owner ??= c.user.name;
  }
}

describe('a kind’s markers, generically', () => {
  const strategy = new WidgetStrategy();
  const c = ctx(strategy);
  const widget = (spec: Widget['spec'], status?: Widget['status']): Widget => ({ metadata: { name: 'w' }, spec, ...(status ? { status } : {}) });

  it('serverSet: the client’s value is gone before the kind’s prepareForCreate, nested or not', async () => {
    const store = storeOf(strategy);
    const created = (await store.create(c, widget({ owner: 'mallory', color: 'red' }, { seen: 'forged' }))) as Widget;
    expect(created.spec).toEqual({ owner: 'admin', color: 'red' });
    expect(created).not.toHaveProperty('status.seen');
  });

  it('serverSet: an update keeps the stored value, and an absent stored value stays absent', async () => {
    const store = storeOf(strategy);
    await store.create(c, widget({ color: 'red' }));
    const { obj } = await store.update(c, 'w', () => widget({ owner: 'mallory', color: 'red', size: 3 }, { seen: 'forged' }));
    expect((obj as Widget).spec).toEqual({ size: 3, owner: 'admin', color: 'red' });
    expect(obj).not.toHaveProperty('status.seen');
  });

  const refusals: [string, Widget['spec'], string[]][] = [
    ['a changed value', { color: 'blue' }, ['spec.color: Invalid value: "blue": field is immutable']],
    ['a removed value', {}, ['spec.color: Invalid value: null: field is immutable']],
    [
      'a kind’s own wording, printed as its Go struct',
      { color: 'red', shape: { sides: 4, name: 'square' } },
      ['spec.shape: Invalid value: {"Sides":4,"Name":"square"}: cannot change shape'],
    ],
  ];
  it.each(refusals)('immutable: %s is refused', async (_name, spec, expected) => {
    const store = storeOf(strategy);
    await store.create(c, widget({ color: 'red', shape: { sides: 3, name: 'triangle' } }));
    const e = await failure(store.update(c, 'w', () => widget({ shape: { sides: 3, name: 'triangle' }, ...spec })));
    expect(e.code).toBe(422);
    expect(e.status.message).toBe(`Widget.test.io "w" is invalid: ${expected.join(', ')}`);
  });

  it('immutable: an unchanged value passes, and other fields may change', async () => {
    const store = storeOf(strategy);
    await store.create(c, widget({ color: 'red', shape: { sides: 3, name: 'triangle' } }));
    const { obj } = await store.update(c, 'w', () => widget({ color: 'red', shape: { sides: 3, name: 'triangle' }, size: 9 }));
    expect((obj as Widget).spec?.size).toBe(9);
  });

  it('a kind without markers runs its own strategy unwrapped', () => {
    const plain = builtinStrategies.find((st) => st.resource.resource === 'configmaps')!;
    expect(storeOf(plain).strategy).toBe(plain);
  });
});

describe('schemaMarkers: the walk', () => {
  it('finds nested markers in schema order', () => {
    const m = schemaMarkers(WidgetSchema);
    expect(m.serverSet.map((f) => f.path.join('.'))).toEqual(['spec.owner', 'status.seen']);
    expect(m.immutable.map((f) => f.path.join('.'))).toEqual(['spec.color', 'spec.shape']);
  });

  it('walks a schema that contains itself once per path', () => {
    const Node: ReturnType<typeof defineObject> = defineObject({
      name: 'io.test.Node',
      fields: { id: s.string({ immutable: true }), next: s.object(() => Node), children: s.array(s.object(() => Node)) },
    });
    expect(schemaMarkers(Node).immutable.map((f) => f.path.join('.'))).toEqual(['id']);
  });

  it('refuses a marker inside a list or map item, which it could not enforce', () => {
    const Item = defineObject({ name: 'io.test.Item', fields: { key: s.string({ immutable: true }) } });
    const Bad = defineObject({ name: 'io.test.Bad', fields: { items: s.array(s.object(() => Item)) } });
    expect(() => schemaMarkers(Bad)).toThrow('schema marker inside a list or map item at items[*].key');
  });
});

describe('immutableErrors: a Go struct compares with zero values for absent fields', () => {
  const markers = schemaMarkers(RoleBindingSchema);
  const group = 'rbac.authorization.svc.io';
  const ref = { apiGroup: group, kind: 'ClusterRole', name: 'view' };
  const binding = (roleRef: object | undefined): ApiObject => ({ metadata: { name: 'b' }, ...(roleRef ? { roleRef } : {}) });

  it('accepts the same roleRef, and empty fields against absent ones', () => {
    expect(immutableErrors(markers, binding({ ...ref }), binding(ref))).toEqual([]);
    expect(immutableErrors(markers, binding({ apiGroup: '', kind: '', name: '' }), binding(undefined))).toEqual([]);
  });

  it.each([
    ['name', { ...ref, name: 'edit' }],
    ['kind', { ...ref, kind: 'Role' }],
    ['apiGroup', { ...ref, apiGroup: 'other.io' }],
  ])('refuses a changed %s, printing the new roleRef as upstream', (_n, changed) => {
    expect(immutableErrors(markers, binding(changed), binding(ref)).map(renderFieldError)).toEqual([
      `roleRef: Invalid value: {"APIGroup":${JSON.stringify(changed.apiGroup)},"Kind":${JSON.stringify(changed.kind)},"Name":${JSON.stringify(changed.name)}}: cannot change roleRef`,
    ]);
  });
});
