// GET on a collection.
import { listObjects } from '../../registry/list';
import type { HandlerContext } from '../handlerContext';
import { encodedListItems, writeObject } from '../respond';
import { responseBody } from '../tableResponse';
import { listRequestFromQuery } from './listQuery';

export async function handleList(h: HandlerContext): Promise<void> {
  // Compact JSON (no Table or PartialObjectMetadata, not pretty, no audited response body) splices the items' memoised
  // JSON text: no decoded tree is built or kept per item.
  const out = h.output;
  const rawJson = out.format === 'json' && !out.pretty && !out.table && !out.partial && h.audit?.level !== 'RequestResponse';
  // Protobuf and CBOR items likewise come as their kept encoding (no decoded tree per object).
  const binary = (out.format === 'protobuf' || out.format === 'cbor') && !out.table && !out.partial && h.audit?.level !== 'RequestResponse';
  const r = h.served.store.resource;
  const encodedItems = binary ? encodedListItems(out, r.group ? `${r.group}/${r.version}` : r.version, r.listKind) : undefined;
  const list = await listObjects(h.served.store, { ...listRequestFromQuery(h, false), rawJson, encodedItems });
  writeObject(h.req, h.res, 200, responseBody(h, list), h.output, { compression: h.features.isEnabled('APIResponseCompression'), warnings: h.warnings });
}
