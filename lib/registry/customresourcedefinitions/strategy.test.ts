// The CRD strategy through a GenericStore on the in-memory backend: defaults, status reset and
// storedVersions on create, generation, what each endpoint keeps, PUT without resourceVersion.
import { MemoryStorage } from '../../etcd/memory';
import { customresourcedefinitions, storageVersionOf, type ApiObject, type CustomResourceDefinition, type JSONSchemaProps } from '../../api';
import { ApiError, isApiError } from '../../machinery/errors';
import { GenericStore } from '../store';
import type { RequestContext } from '../strategy';
import { applyCrdDefaults } from './defaults';
import { customResourceDefinitionStrategy } from './strategy';

type CRD = CustomResourceDefinition;

const ctx: RequestContext = { user: { name: 'admin', groups: ['system:masters'] }, namespace: '', subresource: '', dryRun: false, now: () => new Date('2026-01-10T08:05:00Z') };
const statusCtx: RequestContext = { ...ctx, subresource: 'status' };

const store = (): GenericStore => new GenericStore({ storage: new MemoryStorage(), strategy: customResourceDefinitionStrategy, prefix: '/registry' });

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (isApiError(e)) return e;
    throw e;
  }
  throw new Error('expected the request to fail');
}

const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } };

const body = (): CRD => ({
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema }],
  },
});

const asCRD = (o: ApiObject): CRD => o as CRD;

describe('defaults (upstream v1 SetDefaults_*)', () => {
  const cases: [string, CRD, CRD][] = [
    ['singular, listKind and conversion', { spec: { names: { plural: 'widgets', kind: 'Widget' } } }, { spec: { names: { plural: 'widgets', kind: 'Widget', singular: 'widget', listKind: 'WidgetList' }, conversion: { strategy: 'None' } } }],
    ['given names are kept', { spec: { names: { kind: 'Widget', singular: 'w', listKind: 'Ws' }, conversion: { strategy: 'Webhook' } } }, { spec: { names: { kind: 'Widget', singular: 'w', listKind: 'Ws' }, conversion: { strategy: 'Webhook' } } }],
    ['no listKind without a kind', { spec: { names: {} } }, { spec: { names: { singular: '' }, conversion: { strategy: 'None' } } }],
    ['a webhook service port 443', { spec: { names: { kind: 'W', singular: 'w', listKind: 'WL' }, conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'n', name: 's' } } } } } }, {
      spec: { names: { kind: 'W', singular: 'w', listKind: 'WL' }, conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'n', name: 's', port: 443 } } } } },
    }],
    ['storedVersions from the storage version', { spec: { names: { kind: 'W', singular: 'w', listKind: 'WL' }, conversion: { strategy: 'None' }, versions: [{ name: 'v1' }, { name: 'v2', storage: true }] } }, {
      spec: { names: { kind: 'W', singular: 'w', listKind: 'WL' }, conversion: { strategy: 'None' }, versions: [{ name: 'v1' }, { name: 'v2', storage: true }] },
      status: { storedVersions: ['v2'] },
    }],
    ['storedVersions given are kept', { spec: { names: { kind: 'W', singular: 'w', listKind: 'WL' }, conversion: { strategy: 'None' }, versions: [{ name: 'v2', storage: true }] }, status: { storedVersions: ['v1'] } }, {
      spec: { names: { kind: 'W', singular: 'w', listKind: 'WL' }, conversion: { strategy: 'None' }, versions: [{ name: 'v2', storage: true }] },
      status: { storedVersions: ['v1'] },
    }],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    applyCrdDefaults(input);
    expect(input).toEqual(expected);
  });
});

describe('free-form schema parts in Go\'s shape', () => {
  it('items, additionalProperties and their nested schemas keep known fields in JSONSchemaProps order', () => {
    const crd: CRD = {
      spec: {
        names: { kind: 'W', singular: 'w', listKind: 'WL' },
        conversion: { strategy: 'None' },
        versions: [
          {
            name: 'v1',
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  list: { type: 'array', items: { bogus: 1, items: { zzz: true, type: 'string' }, type: 'array' } as JSONSchemaProps },
                  map: { type: 'object', additionalProperties: { 'x-kubernetes-int-or-string': true, nope: 'x', description: 'd' } as JSONSchemaProps },
                  open: { type: 'object', additionalProperties: true },
                },
              },
            },
          },
        ],
      },
    };
    applyCrdDefaults(crd);
    const props = crd.spec!.versions![0].schema!.openAPIV3Schema!.properties!;
    expect(JSON.stringify(props.list.items)).toBe('{"type":"array","items":{"type":"string"}}');
    expect(JSON.stringify(props.map.additionalProperties)).toBe('{"description":"d","x-kubernetes-int-or-string":true}');
    expect(props.open.additionalProperties).toBe(true);
  });
});

describe('storageVersionOf', () => {
  it('is the one storage version, or none', () => {
    expect(storageVersionOf(body())).toBe('v1');
    expect(storageVersionOf({ spec: { versions: [{ name: 'a', storage: true }, { name: 'b', storage: true }] } })).toBeUndefined();
    expect(storageVersionOf({})).toBeUndefined();
  });
});

describe('CustomResourceDefinition through the store', () => {
  it('is cluster-scoped with the short names and category upstream gives it', () => {
    expect(customresourcedefinitions).toMatchObject({ resource: 'customresourcedefinitions', namespaced: false, shortNames: ['crd', 'crds'], categories: ['api-extensions'] });
    expect(customResourceDefinitionStrategy.tableColumns).toBeUndefined();
  });

  it('create: defaults, status wiped but for the storage version, generation 1', async () => {
    const crd = { ...body(), status: { storedVersions: ['v0'], conditions: [{ type: 'Established', status: 'True' }], acceptedNames: { plural: 'x', kind: 'X' } } };
    const obj = asCRD(await store().create(ctx, crd));
    expect(obj.metadata?.generation).toBe(1);
    expect(obj.spec?.names).toEqual({ plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' });
    expect(obj.spec?.conversion).toEqual({ strategy: 'None' });
    expect(obj.status).toEqual({ acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
  });

  it('create refuses an invalid CRD with upstream text', async () => {
    const crd = body();
    crd.metadata!.name = 'widget.example.com';
    const e = await failure(store().create(ctx, crd));
    expect(e.code).toBe(422);
    expect(e.status.message).toBe(
      'CustomResourceDefinition.apiextensions.svc.io "widget.example.com" is invalid: metadata.name: Invalid value: "widget.example.com": must be spec.names.plural+"."+spec.group',
    );
  });

  it('an update must carry a resourceVersion', async () => {
    const s = store();
    await s.create(ctx, body());
    const e = await failure(s.update(ctx, 'widgets.example.com', () => body()));
    expect(e.status.message).toBe('CustomResourceDefinition.apiextensions.svc.io "widgets.example.com" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
  });

  it('the main endpoint keeps status, bumps generation on a spec change, records a new storage version', async () => {
    const s = store();
    const created = asCRD(await s.create(ctx, body()));
    const rv = created.metadata?.resourceVersion;
    const labelled = asCRD((await s.update(ctx, 'widgets.example.com', (cur) => ({ ...cur, metadata: { ...cur!.metadata, labels: { a: 'b' } }, status: { storedVersions: ['zz'] } }))).obj);
    expect(labelled.metadata?.generation).toBe(1);
    expect(labelled.status?.storedVersions).toEqual(['v1']);
    expect(rv).not.toBe(labelled.metadata?.resourceVersion);
    const v2 = asCRD(
      (
        await s.update(ctx, 'widgets.example.com', (cur) => {
          const c = structuredClone(asCRD(cur!));
          c.spec!.versions = [{ ...c.spec!.versions![0], storage: false }, { name: 'v2', served: true, storage: true, schema }];
          return c;
        })
      ).obj,
    );
    expect(v2.metadata?.generation).toBe(2);
    expect(v2.status?.storedVersions).toEqual(['v1', 'v2']);
  });

  it('/status keeps the spec and generation and takes the status', async () => {
    const s = store();
    await s.create(ctx, body());
    const { obj } = await s.update(statusCtx, 'widgets.example.com', (cur) => {
      const c = structuredClone(asCRD(cur!));
      c.spec!.scope = 'Cluster';
      c.metadata!.generation = 7;
      c.status = { ...c.status, acceptedNames: { plural: 'widgets', kind: 'Widget' }, conditions: [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }] };
      return c;
    });
    const crd = asCRD(obj);
    expect(crd.spec?.scope).toBe('Namespaced');
    expect(crd.metadata?.generation).toBe(1);
    expect(crd.status?.conditions?.[0]).toMatchObject({ type: 'Established', status: 'True' });
    expect(crd.status?.acceptedNames).toEqual({ plural: 'widgets', kind: 'Widget' });
  });

  it('/status validates accepted names', async () => {
    const s = store();
    await s.create(ctx, body());
    const e = await failure(s.update(statusCtx, 'widgets.example.com', (cur) => ({ ...cur, status: { acceptedNames: { plural: 'Widgets', kind: 'Widget' }, storedVersions: ['v1'] } })));
    expect(e.status.message).toContain('status.acceptedNames.plural: Invalid value: "Widgets"');
  });

  it('scope is immutable once Established', async () => {
    const s = store();
    await s.create(ctx, body());
    await s.update(statusCtx, 'widgets.example.com', (cur) => ({ ...cur, status: { ...asCRD(cur!).status, conditions: [{ type: 'Established', status: 'True' }] } }));
    const e = await failure(
      s.update(ctx, 'widgets.example.com', (cur) => {
        const c = structuredClone(asCRD(cur!));
        c.spec!.scope = 'Cluster';
        return c;
      }),
    );
    expect(e.status.message).toBe('CustomResourceDefinition.apiextensions.svc.io "widgets.example.com" is invalid: spec.scope: Invalid value: "Cluster": field is immutable');
  });

  it('field selectors name metadata.name and metadata.namespace (always empty)', () => {
    expect(customResourceDefinitionStrategy.selectableFields(body())).toEqual({ 'metadata.name': 'widgets.example.com', 'metadata.namespace': '' });
  });
});
