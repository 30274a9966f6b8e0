// The codec's names for the JSON reader of lib/machinery/goJson.ts, which is the single
// implementation (Go's encoding/json syntax errors with byte offsets, duplicate keys, key
// order and number literals kept). Kept for the codec's public surface; new code should
// import from lib/machinery directly.
import type { GoJsonNode } from '../machinery/goJson';

export {
  goFloatText,
  goJsonNodeFromValue as fromPlain,
  goJsonNodeValue as toPlain,
  GoJsonSyntaxError as JSONSyntaxError,
  parseGoJsonTree as parseJSON,
} from '../machinery/goJson';
export { setOwn } from '../machinery/jsonValue';

/** A parsed JSON value: objects keep duplicate members in order, numbers keep their text. */
export type JNode = GoJsonNode;
