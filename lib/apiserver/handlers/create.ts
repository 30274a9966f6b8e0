// POST to a collection: decode with field validation, then the registry's create.
import { errors } from '../../machinery/errors';
import type { HandlerContext } from '../handlerContext';
import { decodeRequestBody } from './body';
import { parseWriteOptions } from './writeOptions';
import { respondWritten } from './writtenResponse';

export async function handleCreate(h: HandlerContext): Promise<void> {
  const { store, info } = h.served;
  const opts = parseWriteOptions(h.query, 'CreateOptions');
  h.dryRun = opts.dryRun;
  const obj = await decodeRequestBody(h, info, opts.fieldValidation);
  if (info.namespaced) {
    const ns = obj.metadata?.namespace;
    if (ns && ns !== h.info.namespace) {
      throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
  }
  const created = await store.create(h.requestContext(opts.dryRun), obj, h.admission);
  respondWritten(h, 201, created);
}
