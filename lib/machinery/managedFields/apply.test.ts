import type { ManagedFieldsEntry } from '../../api/meta';
import { ObjectMetaSchema } from '../../api/meta';
import { defineObject, s } from '../../api/schema';
import { isApiError } from '../errors';
import type { JsonObject } from '../jsonValue';
import { applyConfiguration } from './apply';
import { resetFieldSet } from './recordUpdate';

const Cond = defineObject({ name: 'Cond', fields: { type: s.string(), status: s.string() } });
const Obj = defineObject({
  name: 'Obj',
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema),
    spec: s.object(() =>
      defineObject({
        name: 'Spec',
        fields: {
          a: s.string(),
          b: s.string(),
          tags: s.array(s.string(), { listType: 'set' }),
          conditions: s.array(s.object(() => Cond), { listType: 'map', listMapKeys: ['type'] }),
        },
      }),
    ),
    status: s.object(() => defineObject({ name: 'Status', fields: { phase: s.string() } })),
  },
});

const scope = (manager: string, force = false, now = '2026-01-10T08:00:00Z') => ({
  schema: Obj,
  apiVersion: 'v1',
  manager,
  subresource: '',
  resetFields: resetFieldSet([['status']]),
  now,
  force,
});
const cfg = (spec: JsonObject, labels?: JsonObject): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Obj',
  metadata: { name: 'x', ...(labels ? { labels } : {}) },
  spec,
});
const live = (spec: JsonObject, managedFields?: ManagedFieldsEntry[]): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Obj',
  metadata: { name: 'x', uid: 'u', ...(managedFields ? { managedFields: managedFields as unknown as JsonObject[] } : {}) },
  spec,
});
const upd = (manager: string, fieldsV1: JsonObject): ManagedFieldsEntry => ({
  manager,
  operation: 'Update',
  apiVersion: 'v1',
  time: '2026-01-10T07:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1,
});
const app = (manager: string, fieldsV1: JsonObject): ManagedFieldsEntry => ({ ...upd(manager, fieldsV1), operation: 'Apply' });

function conflictOf(f: () => unknown) {
  try {
    f();
  } catch (e) {
    if (isApiError(e)) return e.status;
    throw e;
  }
  throw new Error('no conflict');
}

describe('applyConfiguration', () => {
  it('creates: the applier owns exactly its configuration', () => {
    const r = applyConfiguration({}, cfg({ a: '1', tags: ['t'] }, { l: 'v' }), scope('mgr'));
    expect(r.object).toEqual(cfg({ a: '1', tags: ['t'] }, { l: 'v' }));
    expect(r.managedFields).toEqual([
      {
        manager: 'mgr',
        operation: 'Apply',
        apiVersion: 'v1',
        time: '2026-01-10T08:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { 'f:l': {} } }, 'f:spec': { 'f:a': {}, 'f:tags': { 'v:"t"': {} } } },
      },
    ]);
  });

  it('an untracked object: existing fields go to before-first-apply', () => {
    const r = applyConfiguration(live({ b: '2' }), cfg({ a: '1' }), scope('mgr'));
    expect(r.object.spec).toEqual({ b: '2', a: '1' });
    expect(r.managedFields?.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['mgr', 'Apply', { 'f:spec': { 'f:a': {} } }],
      ['before-first-apply', 'Update', { 'f:spec': { 'f:b': {} } }],
    ]);
  });

  it('a field the applier stops applying is removed when nobody else owns it', () => {
    const mf = [app('mgr', { 'f:spec': { 'f:a': {}, 'f:b': {} } })];
    const r = applyConfiguration(live({ a: '1', b: '2' }, mf), cfg({ a: '1' }), scope('mgr'));
    expect(r.object.spec).toEqual({ a: '1' });
  });

  it('a field another manager co-owns stays', () => {
    const mf = [app('mgr', { 'f:spec': { 'f:a': {}, 'f:b': {} } }), app('other', { 'f:spec': { 'f:b': {} } })];
    const r = applyConfiguration(live({ a: '1', b: '2' }, mf), cfg({ a: '1' }), scope('mgr'));
    expect(r.object.spec).toEqual({ a: '1', b: '2' });
    expect(r.managedFields?.map((e) => [e.manager, e.fieldsV1])).toEqual([
      ['mgr', { 'f:spec': { 'f:a': {} } }],
      ['other', { 'f:spec': { 'f:b': {} } }],
    ]);
  });

  it('the same value as another owner: co-owned, no conflict, object unchanged keeps the time', () => {
    const mf = [upd('kubectl', { 'f:spec': { 'f:a': {} } })];
    const r = applyConfiguration(live({ a: '1' }, mf), cfg({ a: '1' }), scope('mgr'));
    expect(r.managedFields?.map((e) => [e.manager, e.operation, e.time ?? null])).toEqual([
      ['mgr', 'Apply', null],
      ['kubectl', 'Update', '2026-01-10T07:00:00Z'],
    ]);
  });

  it('one conflict: upstream message, cause, using <apiVersion> for an Update manager', () => {
    const mf = [upd('kubectl', { 'f:spec': { 'f:a': {} } })];
    const st = conflictOf(() => applyConfiguration(live({ a: '1' }, mf), cfg({ a: '2' }), scope('mgr')));
    expect(st).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "kubectl" using v1: .spec.a',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl" using v1', field: '.spec.a' }] },
      code: 409,
    });
  });

  it('several conflicts grouped by manager; appliers printed without apiVersion', () => {
    const mf = [upd('zeta', { 'f:spec': { 'f:a': {}, 'f:b': {} } }), app('alpha', { 'f:spec': { 'f:conditions': { 'k:{"type":"A"}': { 'f:status': {} } } } })];
    const st = conflictOf(() =>
      applyConfiguration(live({ a: '1', b: '1', conditions: [{ type: 'A', status: 'T' }] }, mf), cfg({ a: '2', b: '2', conditions: [{ type: 'A', status: 'F' }] }), scope('mgr')),
    );
    expect(st.message).toBe(
      'Apply failed with 3 conflicts: conflicts with "alpha":\n- .spec.conditions[type="A"].status\nconflicts with "zeta" using v1:\n- .spec.a\n- .spec.b',
    );
    expect(st.details?.causes?.map((c) => [c.message, c.field])).toEqual([
      ['conflict with "alpha"', '.spec.conditions[type="A"].status'],
      ['conflict with "zeta" using v1', '.spec.a'],
      ['conflict with "zeta" using v1', '.spec.b'],
    ]);
  });

  it('force takes the fields from the other manager', () => {
    const mf = [upd('kubectl', { 'f:spec': { 'f:a': {}, 'f:b': {} } })];
    const r = applyConfiguration(live({ a: '1', b: '1' }, mf), cfg({ a: '2' }), scope('mgr', true));
    expect(r.object.spec).toEqual({ a: '2', b: '1' });
    expect(r.managedFields?.map((e) => [e.manager, e.fieldsV1])).toEqual([
      ['mgr', { 'f:spec': { 'f:a': {} } }],
      ['kubectl', { 'f:spec': { 'f:b': {} } }],
    ]);
  });

  it('reset fields are applied but never owned', () => {
    const r = applyConfiguration({}, { ...cfg({ a: '1' }), status: { phase: 'X' } }, scope('mgr'));
    expect(r.managedFields?.[0].fieldsV1).toEqual({ 'f:spec': { 'f:a': {} } });
  });

  it.each<[string, string, boolean]>([
    ['the record still matches live: taken without conflict', '1', true],
    ['live moved away from the record: a conflict', '0', false],
  ])('kubectl over client-side apply: %s', (_n, recorded, ok) => {
    const annotation = 'last-applied';
    const record = JSON.stringify({ apiVersion: 'v1', kind: 'Obj', metadata: { name: 'x' }, spec: { a: recorded } });
    const base = live({ a: '1' }, [upd('kubectl-client-side-apply', { 'f:spec': { 'f:a': {} } })]);
    (base.metadata as JsonObject).annotations = { [annotation]: record };
    const run = () => applyConfiguration(base, cfg({ a: '2' }), { ...scope('kubectl'), clientSideApply: { manager: 'kubectl', annotation } });
    if (ok) expect(run().object.spec).toEqual({ a: '2' });
    else expect(conflictOf(run).message).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .spec.a');
  });

  it('throws for an undeclared field', () => {
    expect(() => applyConfiguration({}, cfg({ foo: 1 }), scope('mgr'))).toThrow('.spec.foo: field not declared in schema');
  });
});
