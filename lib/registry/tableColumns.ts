// Table columns of a kind (upstream's printer column definitions and print functions, and the
// default table convertor of k8s.io/apiserver's rest/table.go). A strategy declares its columns
// once; the HTTP layer turns rows into a meta Table. Descriptions come from the schema.
import { ObjectMetaSchema, fieldAt, type ApiObject, type ObjectSchema } from '../api';
import { humanDuration } from '../machinery/humanDuration';

/** metav1.TableColumnDefinition: every key is always written. */
export interface TableColumnDefinition {
  name: string;
  /** OpenAPI type: string, integer, number, boolean or date. */
  type: string;
  /** "name" marks the primary name column. */
  format: string;
  description: string;
  /** 0 is always shown; higher only with -o wide. */
  priority: number;
}

export type TableCell = string | number | boolean | null;

export interface TableColumn<T extends ApiObject = ApiObject> {
  readonly definition: TableColumnDefinition;
  /** The cell of one object; `now` is the response time (Age). */
  cell(obj: T, now: Date): TableCell;
}

export interface TableRowCells {
  cells: TableCell[];
  object: ApiObject;
}

/** The description of a schema field, as upstream takes SwaggerDoc()[field] of the Go type. */
export function describe(schema: ObjectSchema, path: readonly string[]): string {
  return fieldAt(schema, path)?.description ?? '';
}

export function column<T extends ApiObject>(
  name: string,
  description: string,
  cell: (obj: T, now: Date) => TableCell,
  opts: { type?: string; format?: string; priority?: number } = {},
): TableColumn<T> {
  return { definition: { name, type: opts.type ?? 'string', format: opts.format ?? '', description, priority: opts.priority ?? 0 }, cell };
}

/** Upstream's translateTimestampSince: "<unknown>" for an unset creationTimestamp. */
export function age(timestamp: string | undefined, now: Date): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now.getTime() - t);
}

/** Go's metav1.Time formatted as RFC 3339 in UTC; the zero time when unset. */
function createdAt(timestamp: string | undefined): string {
  const t = timestamp ? Date.parse(timestamp) : NaN;
  if (Number.isNaN(t)) return '0001-01-01T00:00:00Z';
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const nameColumn: TableColumn = column('Name', describe(ObjectMetaSchema, ['name']), (o) => o.metadata?.name ?? '', { format: 'name' });
export const ageColumn: TableColumn = column('Age', describe(ObjectMetaSchema, ['creationTimestamp']), (o, now) => age(o.metadata?.creationTimestamp, now));
export const createdAtColumn: TableColumn = column('Created At', describe(ObjectMetaSchema, ['creationTimestamp']), (o) => createdAt(o.metadata?.creationTimestamp), {
  type: 'date',
});

/** The default table convertor (rest/table.go) for kinds without their own columns. */
export const defaultTableColumns: readonly TableColumn[] = [nameColumn, createdAtColumn];

/** Rows of the given objects under the given columns (upstream prints with Wide: every column). */
export function tableRows(columns: readonly TableColumn[], objects: readonly ApiObject[], now: Date): TableRowCells[] {
  return objects.map((object) => ({ cells: columns.map((c) => c.cell(object, now)), object }));
}
