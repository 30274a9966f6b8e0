// DELETE on a collection: list with the request's selectors, delete each, answer the List of
// what was deleted (errors.md §6).
import type { ApiObject } from '../../api';
import { isApiError } from '../../machinery/errors';
import { listObjects } from '../../registry/list';
import type { HandlerContext } from '../handlerContext';
import { writeObject } from '../respond';
import { responseBody } from '../tableResponse';
import { fieldErr } from '../../machinery/fieldErrors';
import { readDeleteOptions, unsafeOption } from './deleteOptions';
import { invalidOptions } from './writeOptions';
import { listRequestFromQuery } from './listQuery';

export async function handleDeleteCollection(h: HandlerContext): Promise<void> {
  const { store } = h.served;
  const opts = await readDeleteOptions(h);
  if (opts[unsafeOption]) invalidOptions('DeleteOptions', [fieldErr.invalid(unsafeOption, true, 'is not allowed with DELETECOLLECTION, try again after removing the option')]);
  h.dryRun = opts.dryRunAll;
  const listReq = listRequestFromQuery(h, false);
  const list = await listObjects(store, listReq);
  const ctx = h.requestContext(opts.dryRunAll);
  const deleted: ApiObject[] = [];
  for (const item of list.items) {
    const name = item.metadata?.name ?? '';
    try {
      const r = await store.delete({ ...ctx, namespace: item.metadata?.namespace ?? ctx.namespace }, name, opts, h.admission);
      deleted.push(r.body.kind === 'Status' ? item : (r.body as ApiObject));
    } catch (e) {
      // Already gone: another deleter won the race, which is what we wanted.
      if (isApiError(e) && e.code === 404) continue;
      throw e;
    }
  }
  const stripped = deleted.map(({ apiVersion: _a, kind: _k, ...rest }) => rest as ApiObject);
  writeObject(h.req, h.res, 200, responseBody(h, { ...list, items: stripped }), h.output, { compression: false, warnings: h.warnings });
}
