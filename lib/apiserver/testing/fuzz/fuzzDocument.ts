// A fuzzed body as a JSON value with markers for what a plain value cannot carry, and its
// writers (JSON text, YAML text, CBOR bytes). Marker strings stand for a nesting too deep to
// build as a JavaScript value (JSON.stringify and structuredClone give out near 2,000-4,500
// levels), for a number or string written exactly as given (1E400, -0, a lone surrogate escape),
// and for a raw CBOR item (NaN, undefined, tags, byte strings); an object key with the duplicate
// prefix is written as a second member with the key after it.
import { dump } from 'js-yaml';
import type { JsonObject, JsonValue } from '../../../machinery/jsonValue';
import { isJsonObject } from '../../../machinery/jsonValue';

const deepPrefix = '\u0000deep:';
const jsonPrefix = '\u0000json:';
const cborPrefix = '\u0000cbor:';
const duplicatePrefix = '\u0000dup:';

export interface DeepNesting {
  depth: number;
  container: 'array' | 'object';
  /** The innermost value (JSON text). */
  leaf: string;
}

/** The string that stands for a nested value in a document. */
export function deepMarker(d: DeepNesting): string {
  return `${deepPrefix}${d.container}:${d.depth}:${d.leaf}`;
}

function parseDeep(s: string): DeepNesting | undefined {
  if (!s.startsWith(deepPrefix)) return undefined;
  const [container, depth, ...leaf] = s.slice(deepPrefix.length).split(':');
  return { container: container as DeepNesting['container'], depth: Number(depth), leaf: leaf.join(':') };
}

/** A value written as this JSON text (a number or string literal); CBOR writes the number JavaScript reads from it. */
export function jsonLiteral(text: string): string {
  return `${jsonPrefix}${text}`;
}

/** A value written as this CBOR item (hex); JSON and YAML write null in its place. */
export function cborItemHex(hex: string): string {
  return `${cborPrefix}${hex}`;
}

/** The key under which `value` is written as a repeat of member `key`. */
export function duplicateKey(key: string): string {
  return `${duplicatePrefix}${key}`;
}

/** The member name a document key is written as (a repeat's, the key it repeats). */
export function writtenKey(key: string): string {
  return key.startsWith(duplicatePrefix) ? key.slice(duplicatePrefix.length) : key;
}

/** Whether the document holds a marker (so only the JSON and CBOR writers can express it). */
export function hasMarkers(v: JsonValue): boolean {
  if (typeof v === 'string') return v.startsWith(deepPrefix) || v.startsWith(jsonPrefix) || v.startsWith(cborPrefix);
  if (Array.isArray(v)) return v.some(hasMarkers);
  if (isJsonObject(v)) return Object.keys(v).some((k) => k.startsWith(duplicatePrefix) || hasMarkers(v[k]));
  return false;
}

function deepJson(d: DeepNesting): string {
  const [open, close] = d.container === 'array' ? ['[', ']'] : ['{"a":', '}'];
  return open.repeat(d.depth) + d.leaf + close.repeat(d.depth);
}

/** JSON text; numbers as JavaScript writes them (Go reads them all). */
export function writeJson(v: JsonValue): string {
  if (typeof v === 'string') {
    if (v.startsWith(jsonPrefix)) return v.slice(jsonPrefix.length);
    if (v.startsWith(cborPrefix)) return 'null';
    const deep = parseDeep(v);
    return deep ? deepJson(deep) : JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(writeJson).join(',')}]`;
  if (isJsonObject(v)) return `{${Object.keys(v).map((k) => `${JSON.stringify(writtenKey(k))}:${writeJson(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

/** Block-style YAML (js-yaml's writer) when the document has no markers, else its JSON text (YAML's flow style). */
export function writeYaml(v: JsonValue): string {
  if (hasMarkers(v)) return writeJson(v);
  return dump(v, { noRefs: true, lineWidth: -1 });
}

// ---- CBOR (RFC 8949): preferred serialisation, definite lengths, the self-described tag first ----

function head(out: number[], major: number, n: number): void {
  const m = major << 5;
  if (n < 24) out.push(m | n);
  else if (n < 0x100) out.push(m | 24, n);
  else if (n < 0x10000) out.push(m | 25, n >> 8, n & 0xff);
  else if (n < 0x100000000) out.push(m | 26, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  else {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt(n));
    out.push(m | 27, ...b);
  }
}

function text(out: number[], s: string): void {
  const b = Buffer.from(s, 'utf8');
  head(out, 3, b.length);
  for (const x of b) out.push(x);
}

function cborItem(out: number[], v: JsonValue): void {
  if (v === null) out.push(0xf6);
  else if (v === true) out.push(0xf5);
  else if (v === false) out.push(0xf4);
  else if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) head(out, v < 0 ? 1 : 0, v < 0 ? -1 - v : v);
    else {
      const b = Buffer.alloc(8);
      b.writeDoubleBE(v);
      out.push(0xfb, ...b);
    }
  } else if (typeof v === 'string' && v.startsWith(cborPrefix)) {
    out.push(...Buffer.from(v.slice(cborPrefix.length), 'hex'));
  } else if (typeof v === 'string' && v.startsWith(jsonPrefix)) {
    cborItem(out, JSON.parse(v.slice(jsonPrefix.length)) as JsonValue);
  } else if (typeof v === 'string') {
    const deep = parseDeep(v);
    if (!deep) text(out, v);
    else {
      for (let i = 0; i < deep.depth; i++) {
        if (deep.container === 'array') head(out, 4, 1);
        else {
          head(out, 5, 1);
          text(out, 'a');
        }
      }
      cborItem(out, JSON.parse(deep.leaf) as JsonValue);
    }
  } else if (Array.isArray(v)) {
    head(out, 4, v.length);
    for (const x of v) cborItem(out, x);
  } else {
    const o = v as JsonObject;
    const keys = Object.keys(o);
    head(out, 5, keys.length);
    for (const k of keys) {
      text(out, writtenKey(k));
      cborItem(out, o[k]);
    }
  }
}

export function writeCbor(v: JsonValue): Buffer {
  const out: number[] = [0xd9, 0xd9, 0xf7];
  cborItem(out, v);
  return Buffer.from(out);
}
