// PUT of a whole object (main resource or a subresource); 201 when it created the object.
import type { HandlerContext } from '../handlerContext';
import { replacementWith } from '../../registry/store';
import { writtenJson } from '../../registry/servingCache';
import { writeObject } from '../respond';
import { isCompactJsonResponse, responseBody } from '../tableResponse';
import { decodeRequestBody } from './body';
import { checkName } from './checkName';
import { parseWriteOptions } from './writeOptions';

export async function handleUpdate(h: HandlerContext): Promise<void> {
  const { store, info } = h.served;
  const opts = parseWriteOptions(h.query, 'UpdateOptions');
  h.dryRun = opts.dryRun;
  const body = await decodeRequestBody(h, info, opts.fieldValidation);
  checkName(body, h.info.name);
  const { obj, created } = await store.update(h.requestContext(opts.dryRun), h.info.name, replacementWith(body));
  // Compact JSON: the text the store memoised for this revision (no second serialisation).
  const json = isCompactJsonResponse(h) ? writtenJson(obj) : undefined;
  writeObject(h.req, h.res, created ? 201 : 200, json ?? responseBody(h, obj), h.output, { compression: false, warnings: h.warnings });
}
