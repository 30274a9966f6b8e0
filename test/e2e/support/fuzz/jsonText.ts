// JSON text with raw literals spliced in: values JSON.stringify cannot produce (1e400, 30-digit
// integers, 10,000-deep nesting) or would normalise away.

const marker = '__FUZZ_RAW_VALUE__';

/** A placeholder to put where the raw literal goes. */
export const rawSlot = marker;

/** JSON of value with the (quoted) placeholder replaced by rawLiteral. */
export function jsonWithRaw(value: unknown, rawLiteral: string): string {
  const text = JSON.stringify(value);
  const quoted = JSON.stringify(marker);
  if (!text.includes(quoted)) throw new Error('no placeholder in the value');
  return text.split(quoted).join(rawLiteral);
}

export function nestedArrays(depth: number, inner = ''): string {
  return '['.repeat(depth) + inner + ']'.repeat(depth);
}

export function nestedObjects(depth: number, key = 'a', inner = '1'): string {
  return `{"${key}":`.repeat(depth) + inner + '}'.repeat(depth);
}

/** Escapes a JSON Pointer reference token (RFC 6901). */
export function pointerToken(step: string | number): string {
  return String(step).replace(/~/g, '~0').replace(/\//g, '~1');
}
