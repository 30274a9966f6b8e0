// PUT of a whole object (main resource or a subresource); 201 when it created the object.
import type { HandlerContext } from '../handlerContext';
import { replacementWith } from '../../registry/store';
import { decodeRequestBody } from './body';
import { checkName } from './checkName';
import { parseWriteOptions } from './writeOptions';
import { respondWritten } from './writtenResponse';
import { handleViewUpdate, subresourceViewOf } from './subresourceView';

export async function handleUpdate(h: HandlerContext): Promise<void> {
  const { store, info } = h.served;
  const opts = parseWriteOptions(h.query, 'UpdateOptions');
  h.dryRun = opts.dryRun;
  const view = subresourceViewOf(h);
  if (view) return handleViewUpdate(h, view, opts);
  const body = await decodeRequestBody(h, info, opts.fieldValidation);
  checkName(body, h.info.name);
  const { obj, created } = await store.update(h.requestContext(opts.dryRun), h.info.name, replacementWith(body), h.admission);
  respondWritten(h, created ? 201 : 200, obj);
}
