// A handler's response body in the negotiated representation: the object itself, or its Table
// when the client asked for one. The options are read before any storage work is done.
import type { ApiList, ApiObject, Status } from '../api';
import type { HandlerContext } from './handlerContext';
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

export function responseBody<T extends ApiObject | ApiList | Status>(h: HandlerContext, value: T): T | Table | Status {
  const opts = tableOptionsFor(h);
  return opts ? asTable(value, opts) : value;
}
