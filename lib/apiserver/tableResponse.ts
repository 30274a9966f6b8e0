// A handler's response body in the negotiated representation: the object itself, its Table, or
// its PartialObjectMetadata(List) when the client asked for one. Reads call tableOptionsFor
// before any storage work; writes convert after the write, as upstream's
// transformResponseObject does (so a bad includeObject on a write is a 400 after the write).
import type { ApiList, ApiObject, Status } from '../api';
import { ServedObject } from '../registry/servingCache';
import type { HandlerContext } from './handlerContext';
import { asPartialObjectMetadata, type PartialObjectMetadata, type PartialObjectMetadataList } from './partialObjectMetadata';
import { asTable, includeObjectFromQuery, type Table, type TableOptions } from './tableOutput';

/** Table options for this request, or undefined when no Table was asked for; 400 on a bad includeObject. */
export function tableOptionsFor(h: HandlerContext): TableOptions | undefined {
  const target = h.output.table;
  if (!target) return undefined;
  const { store } = h.served;
  return {
    target,
    include: includeObjectFromQuery(h.query),
    columns: store.strategy.tableColumns,
    now: h.now(),
    headers: true,
    typed: (obj) => store.withTypeMeta(obj),
  };
}

/** The value itself, or the Table or PartialObjectMetadata made from it (a read's revision: from its shared object). */
export function responseBody<T extends ApiObject | ApiList | Status | ServedObject>(
  h: HandlerContext,
  value: T,
): T | Table | PartialObjectMetadata | PartialObjectMetadataList | Status {
  if (!h.output.partial && !h.output.table) return value;
  const obj = value instanceof ServedObject ? value.object : (value as Exclude<T, ServedObject>);
  if (h.output.partial) return asPartialObjectMetadata(obj, h.output.partial, h.served.info);
  const opts = tableOptionsFor(h);
  return opts ? asTable(obj, opts) : value;
}
