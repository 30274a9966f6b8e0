import type { ConfigMap } from '../../api';
import type { RequestContext } from '../strategy';
import { builtinStrategies } from '../builtin';
import { configMapStrategy as strategy } from './strategy';

const ctx: RequestContext = { user: { name: 'u', groups: [] }, namespace: 'ns', subresource: '', dryRun: false, now: () => new Date(0) };

function cm(extra: Partial<ConfigMap> = {}): ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'ns' }, ...extra };
}

describe('ConfigMap strategy', () => {
  it('is registered as a namespaced core/v1 resource with the short name cm', () => {
    expect(builtinStrategies).toContain(strategy);
    expect(strategy.resource).toMatchObject({ group: '', version: 'v1', kind: 'ConfigMap', resource: 'configmaps', namespaced: true, shortNames: ['cm'] });
  });

  it('changes nothing on create and update', () => {
    const obj = cm({ data: { a: 'b' }, binaryData: { c: 'AA==' }, immutable: true });
    const copy = structuredClone(obj);
    strategy.prepareForCreate(ctx, obj);
    strategy.prepareForUpdate(ctx, obj, cm());
    expect(obj).toEqual(copy);
  });

  it('validates on create and on update (immutability needs the old object)', () => {
    expect(strategy.validate(ctx, cm({ data: { '..x': '' } }))).toHaveLength(1);
    expect(strategy.validateUpdate(ctx, cm({ immutable: true, data: { a: 'c' } }), cm({ immutable: true, data: { a: 'b' } }))).toEqual([
      { type: 'FieldValueForbidden', field: 'data', detail: 'field is immutable when `immutable` is set' },
    ]);
  });

  const names: [string, boolean, number][] = [
    ['settings', false, 0],
    ['a.b-c', false, 0],
    ['Settings', false, 1],
    ['a_b', false, 1],
    ['gen-', true, 0],
  ];
  it.each(names)('validateName(%p, prefix=%p) is a DNS subdomain', (name, prefix, count) => {
    expect(strategy.validateName(name, prefix)).toHaveLength(count);
  });

  it('selects on metadata.name and metadata.namespace; PUT is unconditional but never creates; DELETE returns a Status', () => {
    expect(strategy.selectableFields(cm())).toEqual({ 'metadata.name': 'settings', 'metadata.namespace': 'ns' });
    expect(strategy.allowUnconditionalUpdate).toBe(true);
    expect(strategy.allowCreateOnUpdate).toBe(false);
    expect(strategy.deleteReturnsObject).toBe(false);
    expect(strategy.subresourceStrategies).toEqual({});
  });
});
