// The Table representation of a response (upstream handlers/response.go asTable with the
// printers' TableConvertor): rows from the kind's columns, each row's object reduced per
// includeObject, and the list metadata kept. The client chooses the Table's group and version.
import { annotations, type ApiList, type ApiObject, type ListMeta, type Status } from '../api';
import { errors } from '../machinery/errors';
import { defaultTableColumns, tableRows, type TableCell, type TableColumn, type TableColumnDefinition } from '../registry/tableColumns';

/** The Table's group and version as the client asked (meta.svc.io or meta.k8s.io; v1 or v1beta1). */
export interface TableTarget {
  group: string;
  version: string;
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableRow {
  cells: TableCell[];
  /** Go's RawExtension without an object marshals as null (includeObject=None). */
  object: ApiObject | null;
}

export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: ListMeta;
  /** null when headers are left out (every watch event after the first). */
  columnDefinitions: TableColumnDefinition[] | null;
  /** null only when the default convertor gets an empty list, as upstream. */
  rows: TableRow[] | null;
}

/** TableOptions from the query: `includeObject`, validated as ValidateTableOptions. */
export function includeObjectFromQuery(query: URLSearchParams): IncludeObject {
  const v = query.get('includeObject') ?? '';
  if (v === '' || v === 'Metadata') return 'Metadata';
  if (v === 'None' || v === 'Object') return v;
  throw errors.badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: ${JSON.stringify(v)}: must be 'Metadata', 'Object', 'None', or empty`);
}

export interface TableOptions {
  target: TableTarget;
  include: IncludeObject;
  /** The kind's columns; absent = the default table. */
  columns?: readonly TableColumn[];
  /** Response time, for Age cells. */
  now: Date;
  /** False leaves columnDefinitions null (NoHeaders). */
  headers: boolean;
  /** The full object in the endpoint's version (includeObject=Object). */
  typed(obj: ApiObject): ApiObject;
}

function isList(v: ApiObject | ApiList): v is ApiList {
  return Array.isArray((v as ApiList).items);
}

function isStatus(v: ApiObject | ApiList | Status): v is Status {
  return v.kind === 'Status';
}

function hasInitialEventsEnd(obj: ApiObject): boolean {
  return obj.metadata?.annotations?.[annotations.initialEventsEnd] === 'true';
}

function rowObject(obj: ApiObject, opts: TableOptions, apiVersion: string): ApiObject | null {
  // The annotated initial-events-end bookmark is always reduced to metadata.
  if (opts.include === 'Object' && !hasInitialEventsEnd(obj)) return opts.typed(obj);
  if (opts.include === 'None' && !hasInitialEventsEnd(obj)) return null;
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata ?? {} };
}

/** An object or a list as a Table; a Status passes unchanged (doTransformObject). */
export function asTable(input: ApiObject | ApiList | Status, opts: TableOptions): Table | Status {
  if (isStatus(input)) return input;
  const value = input;
  const apiVersion = `${opts.target.group}/${opts.target.version}`;
  const columns = opts.columns ?? defaultTableColumns;
  const objects = isList(value) ? value.items : [value as ApiObject];
  const rows: TableRow[] = tableRows(columns, objects, opts.now).map((r) => ({ cells: r.cells, object: rowObject(r.object, opts, apiVersion) }));
  const metadata: ListMeta = {};
  if (isList(value)) {
    if (value.metadata.resourceVersion) metadata.resourceVersion = value.metadata.resourceVersion;
    if (value.metadata.continue) metadata.continue = value.metadata.continue;
    if (value.metadata.remainingItemCount !== undefined) metadata.remainingItemCount = value.metadata.remainingItemCount;
  } else if (value.metadata?.resourceVersion) {
    metadata.resourceVersion = value.metadata.resourceVersion;
  }
  return {
    kind: 'Table',
    apiVersion,
    metadata,
    columnDefinitions: opts.headers ? columns.map((c) => c.definition) : null,
    // The printers build rows for every list; the default convertor appends to a nil slice.
    rows: rows.length === 0 && !opts.columns ? null : rows,
  };
}
