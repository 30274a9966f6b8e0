// A list item's served JSON rebuilt from the stored bytes, so the watch cache keeps one form per
// object (issue 14 item 3). Objects this server wrote are stored as their normalised JSON with
// kind and apiVersion first and no resourceVersion: the served list item is then the stored text
// without its TypeMeta head, with `"resourceVersion":"N"` put back at its place in metadata. The
// splice is found once per stored value by checking it against the item serialised the slow way
// (decode, normalise, stringify); a value it does not reproduce exactly keeps that text instead.
import { isAscii } from 'node:buffer';
import { ObjectMetaSchema } from '../api';
import { emissionOrder } from '../codec/normalize';
import { SplicedJson } from '../codec/splicedJson';

/** Where resourceVersion goes back in: which commas, the stored head's length, the insert offset. */
const enum Join {
  /** `"resourceVersion":"N",` before the next member. */
  Before = 0,
  /** `,"resourceVersion":"N"` after the previous member (the last one). */
  After = 1,
  /** metadata's only member. */
  Alone = 2,
}

const headLimit = 1024;

/**
 * The splice (a number) that turns `stored` into the list item `item` at `revision`, or undefined
 * when the stored bytes do not reproduce it exactly (another writer's field order, unknown fields,
 * non-ASCII text, a stored resourceVersion).
 */
export function listItemSplice(stored: Uint8Array, item: string, revision: number): number | undefined {
  const rv = `"resourceVersion":"${revision}"`;
  const at = item.indexOf(rv);
  if (at < 0 || item.indexOf(rv, at + 1) >= 0) return undefined;
  let join: Join;
  let without: string;
  let insertAt: number;
  if (item[at + rv.length] === ',') {
    join = Join.Before;
    without = item.slice(0, at) + item.slice(at + rv.length + 1);
    insertAt = at;
  } else if (item[at - 1] === ',') {
    join = Join.After;
    without = item.slice(0, at - 1) + item.slice(at + rv.length);
    insertAt = at - 1;
  } else {
    join = Join.Alone;
    without = item.slice(0, at) + item.slice(at + rv.length);
    insertAt = at;
  }
  // ASCII only: string offsets are byte offsets, and latin1 decodes it exactly.
  if (!isAscii(stored)) return undefined;
  const text = view(stored).toString('latin1');
  const head = text.length - (without.length - 1);
  if (head < 1 || head >= headLimit || text[0] !== '{' || without[0] !== '{' || text.slice(head) !== without.slice(1)) return undefined;
  const offset = head + insertAt - 1;
  return (offset * headLimit + head) * 4 + join;
}

/** ObjectMeta's members in emission order, by position: resourceVersion goes back in between them. */
let metaOrder: Map<string, number> | undefined;
let resourceVersionAt = -1;

/**
 * listItemSplice's number for bytes this server just stored from `obj` (encodeForStorage: its
 * JSON without resourceVersion), found from the text before resourceVersion's place alone: the
 * members before metadata and metadata's members that come before it, serialised as the stored
 * text begins, must be exactly its first bytes. Undefined (the caller checks the slow way) when
 * they are not, when kind and apiVersion are not first, when metadata's members are not in
 * emission order or include one the schema lacks (the served item would drop or move them),
 * or when the bytes are not ASCII.
 */
export function writtenSplice(stored: Uint8Array, obj: Record<string, unknown>): number | undefined {
  const keys = Object.keys(obj);
  if (keys[0] !== 'kind' || keys[1] !== 'apiVersion' || typeof obj.kind !== 'string' || typeof obj.apiVersion !== 'string') return undefined;
  const meta = obj.metadata;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  if (!metaOrder) {
    const order = emissionOrder(ObjectMetaSchema);
    metaOrder = new Map(order.map((name, i) => [name, i]));
    resourceVersionAt = order.indexOf('resourceVersion');
  }
  const before: Record<string, unknown> = {};
  let last = -1;
  let members = 0;
  for (const name in meta) {
    const at = metaOrder.get(name);
    if (at === undefined || at <= last) return undefined;
    last = at;
    const v = (meta as Record<string, unknown>)[name];
    if (at < resourceVersionAt && v !== undefined) {
      before[name] = v;
      members++;
    }
  }
  const prefix: Record<string, unknown> = {};
  for (const k of keys) {
    if (k === 'metadata') break;
    prefix[k] = obj[k];
  }
  prefix.metadata = before;
  // `{…,"metadata":{…}}` without its two closing braces: the stored text up to the insert.
  const text = JSON.stringify(prefix);
  const offset = text.length - 2;
  const head = JSON.stringify({ kind: obj.kind, apiVersion: obj.apiVersion }).length;
  if (head >= headLimit || offset >= stored.length || !isAscii(stored)) return undefined;
  const b = view(stored);
  if (b.toString('latin1', 0, offset) !== text.slice(0, offset)) return undefined;
  const join = members > 0 ? Join.After : b[offset] === 0x7d ? Join.Alone : Join.Before;
  return (offset * headLimit + head) * 4 + join;
}

/** The list item of `stored` at `revision`, from listItemSplice's number. */
export function splicedListItem(stored: Uint8Array, splice: number, revision: number): SplicedJson {
  const join = splice % 4;
  const head = Math.floor(splice / 4) % headLimit;
  const offset = Math.floor(splice / (4 * headLimit));
  const rv = `"resourceVersion":"${revision}"`;
  return new SplicedJson(stored, head, offset, join === Join.Before ? `${rv},` : join === Join.After ? `,${rv}` : rv);
}

function view(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}
