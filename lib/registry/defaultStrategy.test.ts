// What a kind gets from DefaultStrategy, and each built-in kind's selectable fields against
// upstream's (what its field selectors may name).
import { configmaps, ObjectMetaSchema, defineObject, s, type ApiObject, type ResourceInfo } from '../api';
import { builtinStrategies } from './builtin';
import { DefaultStrategy } from './defaultStrategy';
import type { RequestContext } from './strategy';

/**
 * Upstream 1.32's selectable fields per resource: the generic store's DefaultNamespaceScopedAttr /
 * DefaultClusterScopedAttr (apiserver registry/generic/registry/store.go, CompleteWithOptions)
 * unless the kind has its own attributes and field-label conversion: Namespace adds status.phase
 * (pkg/apis/core/v1/conversion.go; its GetAttrs' "name" is refused by the conversion), CSR adds
 * spec.signerName (pkg/apis/certificates/v1/conversion.go).
 */
const upstream: Record<string, readonly string[]> = {
  namespaces: ['metadata.name', 'status.phase'],
  serviceaccounts: ['metadata.name', 'metadata.namespace'],
  configmaps: ['metadata.name', 'metadata.namespace'],
  certificatesigningrequests: ['metadata.name', 'spec.signerName'],
  leases: ['metadata.name', 'metadata.namespace'],
  roles: ['metadata.name', 'metadata.namespace'],
  rolebindings: ['metadata.name', 'metadata.namespace'],
  clusterroles: ['metadata.name'],
  clusterrolebindings: ['metadata.name'],
  validatingadmissionpolicies: ['metadata.name'],
  validatingadmissionpolicybindings: ['metadata.name'],
  // Cluster-scoped, but its GetAttrs is ObjectMetaFieldsSet(meta, true) (customresourcedefinition/strategy.go).
  customresourcedefinitions: ['metadata.name', 'metadata.namespace'],
};

describe('selectable fields of the built-in kinds', () => {
  const kinds = builtinStrategies.map((st) => [`${st.resource.resource}.${st.resource.version}`, st] as const);

  it.each(kinds)('%s: as upstream', (_name, strategy) => {
    const expected = upstream[strategy.resource.resource];
    expect(expected).toBeDefined();
    expect(Object.keys(strategy.selectableFields({ metadata: {} })).sort()).toEqual([...expected].sort());
  });

  it('each field takes its value from the object', () => {
    const byResource = new Map(builtinStrategies.map((st) => [st.resource.resource, st]));
    const meta = { name: 'n', namespace: 'ns' };
    expect(byResource.get('namespaces')!.selectableFields({ metadata: meta, status: { phase: 'Terminating' } } as ApiObject)).toEqual({
      'metadata.name': 'n',
      'status.phase': 'Terminating',
    });
    expect(byResource.get('certificatesigningrequests')!.selectableFields({ metadata: meta, spec: { signerName: 'example.com/s' } } as ApiObject)).toEqual({
      'metadata.name': 'n',
      'spec.signerName': 'example.com/s',
    });
    expect(byResource.get('configmaps')!.selectableFields({ metadata: meta })).toEqual({ 'metadata.name': 'n', 'metadata.namespace': 'ns' });
    expect(byResource.get('clusterroles')!.selectableFields({ metadata: meta })).toEqual({ 'metadata.name': 'n' });
  });
});

describe('DefaultStrategy', () => {
  const GadgetSchema = defineObject({ name: 'io.test.Gadget', fields: { metadata: s.object(() => ObjectMetaSchema), size: s.int32() } });
  const gadgets = (namespaced: boolean): ResourceInfo => ({
    group: 'test.io',
    version: 'v1',
    kind: 'Gadget',
    listKind: 'GadgetList',
    resource: 'gadgets',
    singular: 'gadget',
    shortNames: [],
    namespaced,
    verbs: ['get'],
    schema: GadgetSchema,
    subresources: [],
  });
  class Gadgets extends DefaultStrategy {
    constructor(readonly resource: ResourceInfo) {
      super();
    }
  }
  const ctx: RequestContext = { user: { name: 'u', groups: [] }, namespace: 'ns', subresource: '', dryRun: false, now: () => new Date(0) };

  it('selects on metadata.name, and metadata.namespace when namespaced', () => {
    const obj = { metadata: { name: 'g', namespace: 'ns' } };
    expect(new Gadgets(gadgets(true)).selectableFields(obj)).toEqual({ 'metadata.name': 'g', 'metadata.namespace': 'ns' });
    expect(new Gadgets(gadgets(false)).selectableFields(obj)).toEqual({ 'metadata.name': 'g' });
  });

  it('hooks do nothing, names are DNS subdomains, PUT is unconditional but never creates, DELETE answers with a Status', () => {
    const st = new Gadgets(gadgets(true));
    const obj = { metadata: { name: 'g' }, size: 3 };
    st.prepareForCreate(ctx, obj);
    st.prepareForUpdate(ctx, obj, { metadata: { name: 'g' } });
    expect(obj).toEqual({ metadata: { name: 'g' }, size: 3 });
    expect(st.validate(ctx, obj)).toEqual([]);
    expect(st.validateUpdate(ctx, obj, obj)).toEqual([]);
    expect(st.validateName('a.b-c', false)).toEqual([]);
    expect(st.validateName('A_b', false)).toHaveLength(1);
    expect([st.allowUnconditionalUpdate, st.allowCreateOnUpdate, st.deleteReturnsObject]).toEqual([true, false, false]);
    expect(st.subresourceStrategies).toEqual({});
    expect([st.tableColumns, st.applyDefaults, st.warningsOnCreate, st.warningsOnUpdate, st.beforeDelete, st.hasPendingFinalizers]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('withResource serves the same rules over another ResourceInfo', () => {
    const configMapStrategy = builtinStrategies.find((st) => st.resource === configmaps) as DefaultStrategy;
    const beta = { ...configmaps, version: 'v1beta1' };
    const copy = configMapStrategy.withResource(beta);
    expect(copy.resource).toBe(beta);
    expect(configMapStrategy.resource).toBe(configmaps);
    expect(copy.tableColumns).toBe(configMapStrategy.tableColumns);
    const tooBig = { metadata: { name: 'c', namespace: 'ns' }, data: { k: 'x'.repeat(1024 * 1024 + 1) } };
    expect(copy.validate(ctx, tooBig)).toEqual(configMapStrategy.validate(ctx, tooBig));
    expect(copy.validate(ctx, tooBig)).not.toEqual([]);
  });
});
