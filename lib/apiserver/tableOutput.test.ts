// The Table transform: includeObject variants, list metadata, headers, Status passthrough.
import type { ApiList, ApiObject, Status } from '../api';
import { isApiError } from '../machinery/errors';
import { namespaceTableColumns } from '../registry/namespaces/tableColumns';
import type { TableColumn } from '../registry/tableColumns';
import { asTable, includeObjectFromQuery, type IncludeObject, type Table, type TableOptions } from './tableOutput';

const now = new Date('2026-01-10T10:00:00Z');
const ns: ApiObject = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'demo', uid: 'u1', resourceVersion: '42', creationTimestamp: '2026-01-10T09:00:00Z' },
  spec: { finalizers: ['svc.io/x'] },
  status: { phase: 'Active' },
};
const listItem: ApiObject = { metadata: ns.metadata, spec: ns.spec, status: ns.status };
const opts = (include: IncludeObject, extra: Partial<TableOptions> = {}): TableOptions => ({
  target: { group: 'meta.k8s.io', version: 'v1' },
  include,
  columns: namespaceTableColumns as readonly TableColumn[],
  now,
  headers: true,
  typed: (o) => ({ apiVersion: 'v1', kind: 'Namespace', ...o }),
  ...extra,
});

describe('asTable', () => {
  test.each<[IncludeObject, unknown]>([
    ['Metadata', { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: ns.metadata }],
    ['Object', { apiVersion: 'v1', kind: 'Namespace', metadata: ns.metadata, spec: ns.spec, status: ns.status }],
    ['None', null],
  ])('includeObject=%s on a list item', (include, want) => {
    const t = asTable(listItem, opts(include)) as Table;
    expect(t.rows?.[0].object).toEqual(want);
    expect(t.rows?.[0].cells).toEqual(['demo', 'Active', '60m']);
  });

  test('a single object: kind, apiVersion as asked, its resourceVersion, all five definition keys', () => {
    const t = asTable(ns, opts('Metadata', { target: { group: 'meta.svc.io', version: 'v1beta1' } })) as Table;
    expect(JSON.parse(JSON.stringify(t))).toMatchObject({
      kind: 'Table',
      apiVersion: 'meta.svc.io/v1beta1',
      metadata: { resourceVersion: '42' },
      columnDefinitions: [
        { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
        { name: 'Status', type: 'string', format: '', description: 'The status of the namespace', priority: 0 },
        { name: 'Age', type: 'string', format: '', priority: 0 },
      ],
      rows: [{ cells: ['demo', 'Active', '60m'], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.svc.io/v1beta1' } }],
    });
  });

  test('a list keeps resourceVersion, continue and remainingItemCount', () => {
    const list: ApiList = { apiVersion: 'v1', kind: 'NamespaceList', metadata: { resourceVersion: '50', continue: 'tok', remainingItemCount: 3 }, items: [listItem, listItem] };
    const t = asTable(list, opts('None')) as Table;
    expect(t.metadata).toEqual({ resourceVersion: '50', continue: 'tok', remainingItemCount: 3 });
    expect(t.rows).toHaveLength(2);
  });

  test('empty lists: printer columns give [], the default table null (as upstream)', () => {
    const empty: ApiList = { apiVersion: 'v1', kind: 'NamespaceList', metadata: { resourceVersion: '7' }, items: [] };
    expect((asTable(empty, opts('Metadata')) as Table).rows).toEqual([]);
    const t = asTable(empty, opts('Metadata', { columns: undefined })) as Table;
    expect(t.rows).toBeNull();
    expect(t.columnDefinitions?.map((c) => c.name)).toEqual(['Name', 'Created At']);
  });

  test('no headers → columnDefinitions null; the initial-events-end bookmark keeps only metadata', () => {
    const bookmark: ApiObject = { kind: 'Namespace', apiVersion: 'v1', metadata: { resourceVersion: '9', annotations: { 'svc.io/initial-events-end': 'true' } } };
    const t = asTable(bookmark, opts('Object', { headers: false })) as Table;
    expect(t.columnDefinitions).toBeNull();
    expect(t.rows?.[0].object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: bookmark.metadata });
    expect((asTable(bookmark, opts('None')) as Table).rows?.[0].object).toMatchObject({ kind: 'PartialObjectMetadata' });
  });

  test('a Status passes unchanged', () => {
    const st: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired' };
    expect(asTable(st, opts('Metadata'))).toBe(st);
  });
});

describe('includeObjectFromQuery', () => {
  test.each<[string, IncludeObject]>([
    ['', 'Metadata'],
    ['includeObject=', 'Metadata'],
    ['includeObject=Metadata', 'Metadata'],
    ['includeObject=Object', 'Object'],
    ['includeObject=None', 'None'],
  ])('%p → %s', (q, want) => {
    expect(includeObjectFromQuery(new URLSearchParams(q))).toBe(want);
  });

  test('anything else is 400 with ValidateTableOptions’ message', () => {
    try {
      includeObjectFromQuery(new URLSearchParams('includeObject=object'));
      throw new Error('expected 400');
    } catch (e) {
      expect(isApiError(e) && e.code).toBe(400);
      expect(isApiError(e) && e.status.message).toBe(
        `Unable to convert to Table as requested: includeObject: Invalid value: "object": must be 'Metadata', 'Object', 'None', or empty`,
      );
    }
  });
});
