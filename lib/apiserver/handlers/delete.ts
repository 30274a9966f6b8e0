// DELETE of one object: the registry decides between marking (finalizers) and removing.
import type { ApiObject } from '../../api';
import type { HandlerContext } from '../handlerContext';
import { writeObject } from '../respond';
import { responseBody } from '../tableResponse';
import { readDeleteOptions, unsafeOption } from './deleteOptions';
import { handleUnsafeDelete } from './unsafeDelete';

export async function handleDelete(h: HandlerContext): Promise<void> {
  const { store } = h.served;
  const opts = await readDeleteOptions(h);
  if (opts[unsafeOption]) return handleUnsafeDelete(h);
  h.dryRun = opts.dryRunAll;
  const { body, deleted } = await store.delete(h.requestContext(opts.dryRunAll), h.info.name, opts, h.admission);
  const code = !deleted && opts.orphanDependents === false ? 202 : 200;
  const out = body.kind === 'Status' ? body : store.withTypeMeta(body as ApiObject);
  writeObject(h.req, h.res, code, responseBody(h, out), h.output, { compression: false, warnings: h.warnings });
}
