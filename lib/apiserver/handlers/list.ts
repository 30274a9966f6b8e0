// GET on a collection.
import { listObjects } from '../../registry/list';
import type { HandlerContext } from '../handlerContext';
import { writeObject } from '../respond';
import { responseBody } from '../tableResponse';
import { listRequestFromQuery } from './listQuery';

export async function handleList(h: HandlerContext): Promise<void> {
  const list = await listObjects(h.served.store, listRequestFromQuery(h, false));
  writeObject(h.req, h.res, 200, responseBody(h, list), h.output, { compression: h.features.isEnabled('APIResponseCompression'), warnings: h.warnings });
}
