// The CRD controller over the in-memory backend: names accepted and Established, the custom
// resource installed into the registry (and its objects stored under <group>/<plural>), name
// conflicts refused, a replica started later serving what exists, and deletion through the
// cleanup finalizer. The CRD kind here is a stand-in with the real one's /status and DELETE rules.
import { type ApiObject, defineObject, ObjectMetaSchema, type ResourceInfo, s } from '../../api';
import { MemoryStorage } from '../../etcd/memory';
import { customResourceInfo } from '../../registry/customresources/resourceInfo';
import { CustomResourceStrategy } from '../../registry/customresources/strategy';
import { DefaultStrategy } from '../../registry/defaultStrategy';
import type { GenericStore } from '../../registry/store';
import { storeFactory, systemContext } from '../../registry/stores';
import type { RequestContext, UpdateStrategy } from '../../registry/strategy';
import { ResourceRegistry } from '../resourceRegistry';
import { CustomResourceController } from './crdController';
import { type CustomResourceDefinition, setCrdCondition } from '../../api/apiextensions';

const finalizer = 'customresourcecleanup.apiextensions.example';
const free = defineObject({ name: 'test.Free', fields: { apiVersion: s.string(), kind: s.string(), metadata: s.object(() => ObjectMetaSchema), spec: s.any(), status: s.any() } });
const crdInfo: ResourceInfo = {
  group: 'apiextensions.example',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  listKind: 'CustomResourceDefinitionList',
  resource: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  shortNames: [],
  namespaced: false,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  schema: free,
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
};
const crdStatus: UpdateStrategy = {
  prepareForUpdate: (_c, obj, old) => void ((obj as CustomResourceDefinition).spec = structuredClone((old as CustomResourceDefinition).spec)),
  validateUpdate: () => [],
};
class StandInCrdStrategy extends DefaultStrategy {
  readonly resource = crdInfo;
  override readonly subresourceStrategies = { status: crdStatus };
  override readonly standardFinalizers = false as const;
  override prepareForUpdate(_c: RequestContext, obj: ApiObject, old: ApiObject): void {
    (obj as CustomResourceDefinition).status = structuredClone((old as CustomResourceDefinition).status);
  }
  override beforeDelete(ctx: RequestContext, obj: ApiObject): ApiObject | null {
    if (obj.metadata?.deletionTimestamp) return null;
    (obj.metadata ??= {}).finalizers = [...(obj.metadata.finalizers ?? []), finalizer];
    setCrdCondition(obj as CustomResourceDefinition, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' }, ctx.now().toISOString());
    return obj;
  }
}

const widgets = (name = 'widgets.example.com', plural = 'widgets'): CustomResourceDefinition => ({
  metadata: { name },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural, singular: plural.slice(0, -1), kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      { name: 'v1', served: true, storage: true, subresources: { status: {} } },
      { name: 'v1beta1', served: false, storage: false },
    ],
  },
});

async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

let storage: MemoryStorage;
let registries: ResourceRegistry[];
let controllers: CustomResourceController[];

function replica(): { registry: ResourceRegistry; crds: GenericStore; controller: CustomResourceController } {
  const registry = new ResourceRegistry({ createStore: storeFactory(storage, '/registry') });
  const crds = registry.install(new StandInCrdStrategy());
  const controller = new CustomResourceController({
    registry,
    crdStore: crds,
    cleanupFinalizer: finalizer,
    cleanupPollMs: 10,
    log: process.env.CRD_TEST_LOG ? (require('pino') as typeof import('pino'))({ level: 'debug' }) : undefined,
    strategyFor: (crd, version, { terminating }) =>
      new CustomResourceStrategy({
        info: customResourceInfo(crd, version, free),
        hasStatus: !!crd.spec?.versions?.find((v) => v.name === version)?.subresources?.status,
        terminating,
        validateSchema: () => [],
        validateStatus: () => [],
        applyDefaults: () => undefined,
        selectableFields: (o) => ({ 'metadata.name': o.metadata?.name ?? '', 'metadata.namespace': o.metadata?.namespace ?? '' }),
      }),
  });
  registries.push(registry);
  controllers.push(controller);
  return { registry, crds, controller };
}

beforeEach(() => {
  storage = new MemoryStorage();
  registries = [];
  controllers = [];
});
afterEach(async () => {
  for (const c of controllers) await c.stop();
  for (const r of registries) await r.close();
});

const conditions = (c: ApiObject): Record<string, string> => Object.fromEntries(((c as CustomResourceDefinition).status?.conditions ?? []).map((x) => [x.type, `${x.status}/${x.reason}`]));

test('a new CRD gets its names and Established, and its served versions are installed', async () => {
  const { registry, crds, controller } = replica();
  await controller.start();
  await crds.create(systemContext(), widgets());
  const crd = await until(async () => {
    const c = (await crds.get(systemContext(), 'widgets.example.com')) as CustomResourceDefinition;
    return conditions(c).Established === 'True/InitialNamesAccepted' && c;
  }, 'Established');
  expect(conditions(crd)).toEqual({ NamesAccepted: 'True/NoConflicts', Established: 'True/InitialNamesAccepted' });
  expect(crd.status?.acceptedNames).toEqual({ plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' });
  const served = await until(() => registry.lookup('example.com', 'v1', 'widgets'), 'the v1 resource');
  expect(registry.lookup('example.com', 'v1beta1', 'widgets')).toBeUndefined();
  const created = await served.store.create(systemContext('default'), { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 3 }, status: { ready: true } } as ApiObject);
  // /status is enabled: a create drops status; generation starts at 1.
  expect(created).toMatchObject({ metadata: { generation: 1 }, spec: { size: 3 } });
  expect((created as { status?: unknown }).status).toBeUndefined();
  expect((await storage.get('/registry/example.com/widgets/default/w1')).kv).not.toBeNull();
});

test('a CRD whose plural another CRD of the group has accepted is refused, not served', async () => {
  const { registry, crds, controller } = replica();
  await controller.start();
  await crds.create(systemContext(), widgets());
  await until(() => registry.lookup('example.com', 'v1', 'widgets'), 'the first CRD served');
  const other0 = widgets('other.example.com', 'widgets');
  other0.spec!.names = { ...other0.spec!.names, singular: 'other', kind: 'Other', listKind: 'OtherList' };
  await crds.create(systemContext(), other0);
  const other = await until(async () => {
    const c = await crds.get(systemContext(), 'other.example.com');
    return conditions(c).NamesAccepted?.startsWith('False') && c;
  }, 'the conflict');
  expect((other as CustomResourceDefinition).status?.conditions?.find((c) => c.type === 'NamesAccepted')).toMatchObject({ reason: 'PluralConflict', message: '"widgets" is already in use' });
  expect(conditions(other).Established).toBe('False/NotAccepted');
});

test('a replica started later serves every existing CRD before start() resolves', async () => {
  const first = replica();
  await first.controller.start();
  await first.crds.create(systemContext(), widgets());
  await until(() => first.registry.lookup('example.com', 'v1', 'widgets'), 'served on the first replica');
  const second = replica();
  await second.controller.start();
  expect(second.registry.lookup('example.com', 'v1', 'widgets')).toBeDefined();
});

test('deleting a CRD deletes its custom resources, removes the finalizer and stops serving', async () => {
  const { registry, crds, controller } = replica();
  await controller.start();
  await crds.create(systemContext(), widgets());
  const served = await until(() => registry.lookup('example.com', 'v1', 'widgets'), 'served');
  for (const n of ['a', 'b']) await served.store.create(systemContext('default'), { metadata: { name: n }, spec: {} } as ApiObject);
  await crds.delete(systemContext(), 'widgets.example.com');
  await until(async () => {
    try {
      await crds.get(systemContext(), 'widgets.example.com');
      return false;
    } catch {
      return true;
    }
  }, 'the CRD gone');
  await until(() => !registry.lookup('example.com', 'v1', 'widgets'), 'the resource removed');
  expect((await storage.list('/registry/example.com/widgets/', {})).kvs).toEqual([]);
  // Created again later, it starts empty.
  await crds.create(systemContext(), widgets());
  const again = await until(() => registry.lookup('example.com', 'v1', 'widgets'), 'served again');
  expect((await again.store.get(systemContext('default'), 'a').catch((e: { code?: number }) => e.code))).toBe(404);
});
