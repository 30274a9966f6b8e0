// A list item's served JSON rebuilt from the stored bytes, so the watch cache keeps one form per
// object (issue 14 item 3). Objects this server wrote are stored as their normalised JSON with
// kind and apiVersion first and no resourceVersion: the served list item is then the stored text
// without its TypeMeta head, with `"resourceVersion":"N"` put back at its place in metadata. The
// splice is found once per stored value by checking it against the item serialised the slow way
// (decode, normalise, stringify); a value it does not reproduce exactly keeps that text instead.
import { isAscii } from 'node:buffer';
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
