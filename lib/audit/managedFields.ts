// omitManagedFields: a copy of a logged body without metadata.managedFields, on the object
// itself, on every list item and on every Table row's object (upstream's copyWithoutManagedFields).
// The caller's value is never changed.
import { deepCopy } from '../machinery/deepCopy';
import type { JsonValue } from '../machinery/jsonValue';
import { getOwn, isJsonObject } from '../machinery/jsonValue';

export function withoutManagedFields(body: JsonValue): JsonValue {
  if (!isJsonObject(body)) return deepCopy(body);
  const copy = deepCopy(body);
  dropFrom(copy);
  const items = getOwn(copy, 'items');
  if (Array.isArray(items)) items.forEach(dropFrom);
  if (getOwn(copy, 'kind') === 'Table') {
    const rows = getOwn(copy, 'rows');
    if (Array.isArray(rows)) for (const row of rows) if (isJsonObject(row)) dropFrom(getOwn(row, 'object'));
  }
  return copy;
}

function dropFrom(obj: unknown): void {
  if (!isJsonObject(obj)) return;
  const metadata = getOwn(obj, 'metadata');
  if (isJsonObject(metadata)) delete metadata.managedFields;
}
