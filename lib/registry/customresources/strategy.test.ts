// The custom-resource strategy's scale wiring: subresources.scale serves a Scale view, and every
// write checks the replicas and selector fields (the main endpoint both, /status the status ones),
// as upstream's validator does.
import { type ApiObject, defineObject, ObjectMetaSchema, s } from '../../api';
import { ScaleSchema, scaleKind } from '../../api/autoscaling/scale';
import { systemContext } from '../stores';
import type { CustomResourceDefinition as Crd } from '../../api/apiextensions';
import { customResourceInfo } from './resourceInfo';
import { CustomResourceStrategy, type CustomResourceRules } from './strategy';

const free = defineObject({ name: 'test.Free', fields: { apiVersion: s.string(), kind: s.string(), metadata: s.object(() => ObjectMetaSchema), spec: s.any(), status: s.any() } });
const scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };
const crd = (withScale: boolean): Crd => ({
  metadata: { name: 'widgets.example.com' },
  spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {}, ...(withScale ? { scale } : {}) } }] },
  status: { acceptedNames: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' } },
});
const rules = (withScale: boolean): CustomResourceRules => ({
  info: customResourceInfo(crd(withScale), 'v1', free),
  hasStatus: true,
  ...(withScale ? { scale } : {}),
  terminating: false,
  validateSchema: () => [],
  validateStatus: () => [],
  applyDefaults: () => undefined,
  selectableFields: () => ({}),
});
const bad = { metadata: { name: 'w' }, spec: { replicas: -1 }, status: { replicas: -2 } } as ApiObject;
const fields = (errs: { field: string }[]): string[] => errs.map((e) => e.field);

test('with subresources.scale: a Scale view, listed with its kind and schema; replicas checked on every endpoint', () => {
  const st = new CustomResourceStrategy(rules(true));
  expect(st.subresourceViews?.scale?.kind).toEqual(scaleKind);
  expect(st.resource.subresources.find((x) => x.name === 'scale')).toEqual({ name: 'scale', verbs: ['get', 'patch', 'update'], kind: scaleKind, schema: ScaleSchema });
  const ctx = systemContext('default');
  expect(fields(st.validate(ctx, bad))).toEqual(['.spec.replicas', '.status.replicas']);
  expect(fields(st.validateUpdate(ctx, bad))).toEqual(['.spec.replicas', '.status.replicas']);
  expect(fields(st.subresourceStrategies.status.validateUpdate(ctx, bad, bad))).toEqual(['.status.replicas']);
});

test('without it: no view and nothing checked', () => {
  const st = new CustomResourceStrategy(rules(false));
  expect(st.subresourceViews).toBeUndefined();
  expect(st.resource.subresources.map((x) => x.name)).toEqual(['status']);
  expect(st.validate(systemContext('default'), bad)).toEqual([]);
  expect(st.subresourceStrategies.status.validateUpdate(systemContext('default'), bad, bad)).toEqual([]);
});
