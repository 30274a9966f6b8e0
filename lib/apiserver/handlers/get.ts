// GET of one object (spec §4.5 item 6: RV unset = most recent, "0" = any, N = not older than N).
import type { ApiObject } from '../../api';
import type { HandlerContext } from '../handlerContext';
import { writeObject } from '../respond';
import { isCompactJsonResponse, responseBody } from '../tableResponse';
import { parseResourceVersion } from './resourceVersion';

export async function handleGet(h: HandlerContext): Promise<void> {
  const rv = h.query.get('resourceVersion') ?? '';
  const { store } = h.served;
  const minRevision = rv === '' || rv === '0' ? undefined : parseResourceVersion(rv, store.groupResource);
  const read = { any: rv === '0', minRevision };
  // Typed already and memoised per revision: compact JSON (no Table, not pretty, no audited
  // response body, not PartialObjectMetadata) as its text alone, anything else as a shared
  // read-only object.
  const compact = isCompactJsonResponse(h);
  const obj = compact ? await store.getServedJson(h.requestContext(false), h.info.name, read) : await store.getServed(h.requestContext(false), h.info.name, read);
  writeObject(h.req, h.res, 200, compact ? obj : responseBody(h, obj as ApiObject), h.output, { compression: h.features.isEnabled('APIResponseCompression'), warnings: h.warnings });
}
