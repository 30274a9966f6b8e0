// GET of one object (spec §4.5 item 6: RV unset = most recent, "0" = any, N = not older than N).
import type { HandlerContext } from '../handlerContext';
import { writeObject } from '../respond';
import { responseBody } from '../tableResponse';
import { parseResourceVersion } from './resourceVersion';

export async function handleGet(h: HandlerContext): Promise<void> {
  const rv = h.query.get('resourceVersion') ?? '';
  const { store } = h.served;
  const minRevision = rv === '' || rv === '0' ? undefined : parseResourceVersion(rv, store.groupResource);
  // Typed already, and shared read-only: its serialisation is reused by the next GET of it.
  const obj = await store.getServed(h.requestContext(false), h.info.name, { any: rv === '0', minRevision });
  writeObject(h.req, h.res, 200, responseBody(h, obj), h.output, { compression: h.features.isEnabled('APIResponseCompression'), warnings: h.warnings });
}
