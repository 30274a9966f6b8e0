import type { ManagedFieldsEntry } from '../../api/meta';
import { defineObject, s } from '../../api/schema';
import { ObjectMetaSchema } from '../../api/meta';
import type { JsonObject } from '../jsonValue';
import { recordUpdate, resetFieldSet } from './recordUpdate';
import type { WriteScope } from './recordUpdate';

const Obj = defineObject({
  name: 'Obj',
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema),
    spec: s.object(() => defineObject({ name: 'Spec', fields: { a: s.string(), b: s.string() } })),
    status: s.object(() => defineObject({ name: 'Status', fields: { phase: s.string() } })),
  },
});

const scope = (manager: string, now = '2026-01-10T08:00:00Z', subresource = ''): WriteScope => ({
  schema: Obj,
  apiVersion: 'v1',
  manager,
  subresource,
  resetFields: resetFieldSet(subresource ? [['spec']] : [['status']]),
  now,
});
const entry = (manager: string, fieldsV1: JsonObject, time = '2026-01-10T07:00:00Z', extra: Partial<ManagedFieldsEntry> = {}): ManagedFieldsEntry => ({
  manager,
  operation: 'Update',
  apiVersion: 'v1',
  time,
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...extra,
});
const obj = (spec: JsonObject, managedFields?: unknown, extra: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Obj',
  metadata: { name: 'x', uid: 'u', resourceVersion: '5', ...(managedFields !== undefined ? { managedFields: managedFields as JsonObject[] } : {}) },
  spec,
  ...extra,
});

describe('recordUpdate', () => {
  it('create: the creator owns what it set; metadata identity fields and reset fields are not tracked', () => {
    const out = recordUpdate(null, obj({ a: '1' }, undefined, { status: { phase: 'x' } }), scope('alice'));
    expect(out).toEqual([entry('alice', { 'f:spec': { 'f:a': {} } }, '2026-01-10T08:00:00Z')]);
  });
  it('update: changed fields move to the writer; removed fields leave everyone', () => {
    const stored = [entry('alice', { 'f:spec': { 'f:a': {}, 'f:b': {} } })];
    const out = recordUpdate(obj({ a: '1', b: '2' }, stored), obj({ a: '9' }, stored), scope('bob'));
    expect(out).toEqual([entry('bob', { 'f:spec': { 'f:a': {} } }, '2026-01-10T08:00:00Z')]);
  });
  it('update that changes nothing tracked keeps the entries and their times', () => {
    const stored = [entry('alice', { 'f:spec': { 'f:a': {} } })];
    expect(recordUpdate(obj({ a: '1' }, stored), obj({ a: '1' }, stored), scope('bob'))).toEqual(stored);
  });
  it('one entry per manager: a second update merges into it', () => {
    const stored = [entry('bob', { 'f:spec': { 'f:a': {} } })];
    expect(recordUpdate(obj({ a: '1' }, stored), obj({ a: '1', b: '2' }, stored), scope('bob'))).toEqual([
      entry('bob', { 'f:spec': { 'f:a': {}, 'f:b': {} } }, '2026-01-10T08:00:00Z'),
    ]);
  });
  it('subresource writes get their own entry and ignore managedFields sent in the body', () => {
    const stored = [entry('alice', { 'f:spec': { 'f:a': {} } })];
    const out = recordUpdate(obj({ a: '1' }, stored), obj({ a: '2' }, [{ manager: 'evil' }], { status: { phase: 'P' } }), scope('ctl', '2026-01-10T08:00:00Z', 'status'));
    expect(out).toEqual([stored[0], entry('ctl', { 'f:status': { 'f:phase': {} } }, '2026-01-10T08:00:00Z', { subresource: 'status' })]);
  });
  it.each<[string, unknown]>([
    ['[{}] resets (and the object stays untracked)', [{}]],
    ['[] resets too, as upstream isResetManagedFields', []],
  ])('%s', (_n, sent) => {
    const stored = [entry('alice', { 'f:spec': { 'f:a': {} } })];
    expect(recordUpdate(obj({ a: '1' }, stored), obj({ a: '2' }, sent), scope('bob'))).toBeUndefined();
  });
  it('absent managedFields in the body keep the stored ones', () => {
    const stored = [entry('alice', { 'f:spec': { 'f:a': {} } })];
    expect(recordUpdate(obj({ a: '1' }, stored), obj({ a: '1', b: '2' }), scope('bob'))).toEqual([
      stored[0],
      entry('bob', { 'f:spec': { 'f:b': {} } }, '2026-01-10T08:00:00Z'),
    ]);
  });
  it('invalid managedFields in the body yield to the stored ones', () => {
    const stored = [entry('alice', { 'f:spec': { 'f:a': {} } })];
    const bad = [{ manager: 'x', operation: 'Bogus', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }];
    expect(recordUpdate(obj({ a: '1' }, stored), obj({ a: '1' }, bad), scope('bob'))).toEqual(stored);
  });
  it('managedFields given in the body are taken as the new ownership', () => {
    const stored = [entry('alice', { 'f:spec': { 'f:a': {} } })];
    const sent = [entry('carol', { 'f:spec': { 'f:a': {} } })];
    expect(recordUpdate(obj({ a: '1' }, stored), obj({ a: '1' }, sent), scope('bob'))).toEqual(sent);
  });
  it('an object without managedFields stays untracked on update', () => {
    expect(recordUpdate(obj({ a: '1' }), obj({ a: '2' }), scope('bob'))).toBeUndefined();
  });
  it('entries sort Apply first, then by time and manager', () => {
    const stored = [entry('zed', { 'f:spec': { 'f:b': {} } }, '2026-01-10T06:00:00Z'), { ...entry('app', { 'f:metadata': { 'f:labels': { 'f:q': {} } } }), operation: 'Apply' as const }];
    const out = recordUpdate(obj({ b: '1' }, stored), obj({ a: '1', b: '1' }, stored), scope('bob'))!;
    expect(out.map((e) => `${e.operation}/${e.manager}`)).toEqual(['Apply/app', 'Update/zed', 'Update/bob']);
  });
  it('past 10 update managers the oldest merge into ancient-changes', () => {
    const stored = Array.from({ length: 10 }, (_, i) => entry(`m${i}`, { 'f:metadata': { 'f:labels': { [`f:l${i}`]: {} } } }, `2026-01-10T07:00:0${i}Z`));
    const labels = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`l${i}`, 'v']));
    const before = obj({}, stored);
    (before.metadata as JsonObject).labels = labels;
    const after = obj({ a: '1' }, stored);
    (after.metadata as JsonObject).labels = labels;
    const out = recordUpdate(before, after, scope('new'))!;
    // The first merge only swaps m0 for the bucket, so m1 follows it in (upstream's count).
    expect(out.map((e) => e.manager)).toEqual(['ancient-changes', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'new']);
    expect(out[0]).toEqual(entry('ancient-changes', { 'f:metadata': { 'f:labels': { 'f:l0': {}, 'f:l1': {} } } }, '2026-01-10T07:00:01Z'));
  });
});
