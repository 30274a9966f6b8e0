// GET of one object (spec §4.5 item 6: RV unset = most recent, "0" = any, N = not older than N).
import type { HandlerContext } from '../handlerContext';
import { writeObject } from '../respond';
import { responseBody } from '../tableResponse';
import { parseResourceVersion } from './resourceVersion';
import { handleViewGet, subresourceViewOf } from './subresourceView';

export async function handleGet(h: HandlerContext): Promise<void> {
  const rv = h.query.get('resourceVersion') ?? '';
  const { store } = h.served;
  const minRevision = rv === '' || rv === '0' ? undefined : parseResourceVersion(rv, store.groupResource);
  const read = { any: rv === '0', minRevision };
  const view = subresourceViewOf(h);
  if (view) return handleViewGet(h, view, read);
  // The revision as served: the encoder asks it for the encoding it writes (compact JSON as its
  // memoised text, anything else from its shared read-only object), a Table or
  // PartialObjectMetadata is made from that object.
  const served = await store.getServed(h.requestContext(false), h.info.name, read);
  writeObject(h.req, h.res, 200, responseBody(h, served), h.output, { compression: h.features.isEnabled('APIResponseCompression'), warnings: h.warnings });
}
