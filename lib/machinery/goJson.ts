// JSON as Go's encoding/json reads and writes it, where its bytes or messages are observable:
// syntax errors ("invalid character 'x' looking for beginning of value"), string escaping
// (HTML-safe \u003c, \u2028, NUL as \u0000) and the node tree that keeps duplicate keys and
// number literals, which typed decoding (continue tokens, JSON patch, request bodies in
// lib/codec) needs for Go's messages. This is the only JSON reader of lib/machinery and lib/codec.
import { goQuote } from './goStrconv';
import type { JsonValue } from './jsonValue';
import { setOwn } from './jsonValue';

export class GoJsonSyntaxError extends Error {
  /** Byte offset of the offending character (the input length for an unexpected end). */
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.name = 'GoJsonSyntaxError';
    this.offset = offset;
  }
}

export type GoJsonNode =
  | { kind: 'object'; members: { key: string; value: GoJsonNode }[] }
  | { kind: 'array'; items: GoJsonNode[] }
  | { kind: 'string'; value: string }
  | { kind: 'number'; text: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'null' };

const maxDepth = 10000;
/** Strings read recently (one per slot, by a hash of their bytes): see GoJsonScanner.interned. */
const internSlots = 4096;
const internedLength = 32;
const internTable: (string | undefined)[] = new Array<string | undefined>(internSlots);
const utf8 = new TextDecoder('utf-8', { fatal: false });

/** quoteChar of Go's scanner: the byte as a rune (U+00XX), Go-quoted between single quotes. */
function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return '\'"\'';
  const q = goQuote(String.fromCharCode(c));
  return `'${q.slice(1, -1)}'`;
}

const simpleEscapes: Readonly<Record<number, string>> = { 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t', 0x5c: '\\', 0x2f: '/', 0x22: '"' };

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/**
 * Go's scanner over one document's bytes: values, literals and strings read the way Go reads
 * them, failing with Go's syntax error. Parser builds the node tree with it; the typed request
 * decoder (lib/codec/decodeTyped.ts) reads a body straight into the schema's form with it.
 */
export class GoJsonScanner {
  pos = 0;
  protected depth = 0;
  /** The same bytes as a Buffer, for native Latin-1 slices of ASCII runs. */
  private readonly buf: Buffer;
  constructor(protected readonly b: Uint8Array) {
    this.buf = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  }

  get length(): number {
    return this.b.length;
  }

  fail(context: string): never {
    if (this.pos >= this.b.length) throw new GoJsonSyntaxError('unexpected end of JSON input', this.b.length);
    throw new GoJsonSyntaxError(`invalid character ${quoteChar(this.b[this.pos])} ${context}`, this.pos);
  }
  skipSpace(): void {
    while (this.pos < this.b.length && isSpace(this.b[this.pos])) this.pos++;
  }
  peek(): number {
    return this.pos < this.b.length ? this.b[this.pos] : -1;
  }

  enter(): void {
    if (++this.depth > maxDepth) this.fail('exceeded max depth');
  }

  literal(word: string): void {
    for (let i = 0; i < word.length; i++) {
      if (this.peek() !== word.charCodeAt(i)) {
        if (i === 0) this.fail('looking for beginning of value');
        this.fail(`in literal ${word} (expecting '${word[i]}')`);
      }
      this.pos++;
    }
  }

  number(): string {
    const start = this.pos;
    if (this.peek() === 0x2d) {
      this.pos++;
      if (!isDigit(this.peek())) this.fail('in numeric literal');
    }
    if (this.peek() === 0x30) this.pos++;
    else while (isDigit(this.peek())) this.pos++;
    if (this.peek() === 0x2e) {
      this.pos++;
      if (!isDigit(this.peek())) this.fail('after decimal point in numeric literal');
      while (isDigit(this.peek())) this.pos++;
    }
    if (this.peek() === 0x65 || this.peek() === 0x45) {
      this.pos++;
      if (this.peek() === 0x2b || this.peek() === 0x2d) this.pos++;
      if (!isDigit(this.peek())) this.fail('in exponent of numeric literal');
      while (isDigit(this.peek())) this.pos++;
    }
    return utf8.decode(this.b.subarray(start, this.pos));
  }

  /**
   * A short ASCII string without escapes: the same string as the last time these bytes were
   * read, so member names and common values are not made again per body, and strings used as
   * property names are the ones V8 already internalised.
   */
  private interned(start: number, end: number, hash: number): string {
    const slot = hash & (internSlots - 1);
    const known = internTable[slot];
    const len = end - start;
    if (known !== undefined && known.length === len) {
      const b = this.b;
      let i = 0;
      while (i < len && known.charCodeAt(i) === b[start + i]) i++;
      if (i === len) return known;
    }
    const s = this.buf.toString('latin1', start, end);
    internTable[slot] = s;
    return s;
  }

  /** Bytes [start, end) as text; ASCII runs (most keys and values) without a TextDecoder call or a subarray. */
  private text(start: number, end: number, ascii: boolean): string {
    if (ascii) return this.buf.toString('latin1', start, end);
    return utf8.decode(this.b.subarray(start, end));
  }

  string(): string {
    const b = this.b;
    const n = b.length;
    let pos = ++this.pos;
    let out = '';
    const start = pos;
    let runStart = pos;
    let ascii = true;
    let hash = 0;
    for (;;) {
      if (pos >= n) {
        this.pos = pos;
        this.fail('in string literal');
      }
      const c = b[pos];
      if (c === 0x22) {
        this.pos = pos + 1;
        if (ascii && runStart === start && pos - start <= internedLength) return this.interned(start, pos, hash);
        out += this.text(runStart, pos, ascii);
        return out;
      }
      if (c !== 0x5c) {
        if (c < 0x20) {
          this.pos = pos;
          this.fail('in string literal');
        }
        if (c >= 0x80) ascii = false;
        hash = (hash * 31 + c) | 0;
        pos++;
        continue;
      }
      out += this.text(runStart, pos, ascii);
      this.pos = pos + 1;
      const e = this.peek();
      const simple = simpleEscapes[e];
      if (simple !== undefined) {
        out += simple;
        this.pos++;
      } else if (e === 0x75) {
        this.pos++;
        out += String.fromCharCode(this.hex4());
        // Go joins a valid surrogate pair and turns a lone surrogate into U+FFFD.
        const last = out.charCodeAt(out.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          if (this.peek() === 0x5c && this.b[this.pos + 1] === 0x75) {
            const save = this.pos;
            this.pos += 2;
            const lo = this.hex4();
            if (lo >= 0xdc00 && lo <= 0xdfff) out += String.fromCharCode(lo);
            else {
              out = `${out.slice(0, -1)}\ufffd`;
              this.pos = save;
            }
          } else out = `${out.slice(0, -1)}\ufffd`;
        } else if (last >= 0xdc00 && last <= 0xdfff) out = `${out.slice(0, -1)}\ufffd`;
      } else this.fail('in string escape code');
      pos = runStart = this.pos;
      ascii = true;
    }
  }

  private hex4(): number {
    let v = 0;
    for (let i = 0; i < 4; i++) {
      const c = this.peek();
      if (!isHex(c)) this.fail('in \\u hexadecimal character escape');
      v = v * 16 + parseInt(String.fromCharCode(c), 16);
      this.pos++;
    }
    return v;
  }
}

class Parser extends GoJsonScanner {
  /**
   * Iterative (an explicit stack instead of recursion), so nesting up to Go's limit of 10000
   * cannot overflow the JavaScript stack.
   */
  parseTop(): GoJsonNode {
    type Frame = { node: Extract<GoJsonNode, { kind: 'object' | 'array' }>; key: string };
    const stack: Frame[] = [];
    let value: GoJsonNode;
    this.skipSpace();
    for (;;) {
      // Expecting a value.
      this.skipSpace();
      const c = this.peek();
      if (c === 0x7b || c === 0x5b) {
        this.enter();
        this.pos++;
        this.skipSpace();
        if (c === 0x7b) {
          const node: GoJsonNode = { kind: 'object', members: [] };
          if (this.peek() === 0x7d) {
            this.pos++;
            this.depth--;
            value = node;
          } else {
            stack.push({ node, key: this.objectKey() });
            continue;
          }
        } else {
          const node: GoJsonNode = { kind: 'array', items: [] };
          if (this.peek() === 0x5d) {
            this.pos++;
            this.depth--;
            value = node;
          } else {
            stack.push({ node, key: '' });
            continue;
          }
        }
      } else value = this.scalar();
      // Have a value: attach it to its container and close finished containers.
      let expectValue = false;
      while (!expectValue) {
        const top = stack[stack.length - 1];
        if (!top) {
          this.skipSpace();
          if (this.pos < this.b.length) this.fail('after top-level value');
          return value;
        }
        this.skipSpace();
        const d = this.peek();
        if (top.node.kind === 'array') {
          top.node.items.push(value);
          if (d === 0x2c) {
            this.pos++;
            expectValue = true;
          } else if (d === 0x5d) {
            this.pos++;
            this.depth--;
            stack.pop();
            value = top.node;
          } else this.fail('after array element');
        } else {
          top.node.members.push({ key: top.key, value });
          if (d === 0x2c) {
            this.pos++;
            this.skipSpace();
            top.key = this.objectKey();
            expectValue = true;
          } else if (d === 0x7d) {
            this.pos++;
            this.depth--;
            stack.pop();
            value = top.node;
          } else this.fail('after object key:value pair');
        }
      }
    }
  }

  /** A member name and its colon. */
  private objectKey(): string {
    if (this.peek() !== 0x22) this.fail('looking for beginning of object key string');
    const key = this.string();
    this.skipSpace();
    if (this.peek() !== 0x3a) this.fail('after object key');
    this.pos++;
    return key;
  }

  private scalar(): GoJsonNode {
    const c = this.peek();
    switch (c) {
      case 0x22:
        return { kind: 'string', value: this.string() };
      case 0x74:
        this.literal('true');
        return { kind: 'bool', value: true };
      case 0x66:
        this.literal('false');
        return { kind: 'bool', value: false };
      case 0x6e:
        this.literal('null');
        return { kind: 'null' };
      default:
        if (c === 0x2d || isDigit(c)) return { kind: 'number', text: this.number() };
        return this.fail('looking for beginning of value');
    }
  }
}

function toBytes(input: Uint8Array | string): Uint8Array {
  return typeof input === 'string' ? new TextEncoder().encode(input) : input;
}

/**
 * Parses one JSON document keeping duplicate members, member order and number literals;
 * throws GoJsonSyntaxError with Go's text and the byte offset.
 */
export function parseGoJsonTree(input: Uint8Array | string): GoJsonNode {
  return new Parser(toBytes(input)).parseTop();
}

/** Go's json encoding of a float64: integers below 1e21 in full, else the shortest form. */
export function goFloatText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return BigInt(n).toString();
  return String(n);
}

/**
 * The node for a plain value (numbers rendered the way Go's encoder writes a float64,
 * Maps as objects keyed by String(key)).
 */
export function goJsonNodeFromValue(v: unknown): GoJsonNode {
  if (v === null || v === undefined) return { kind: 'null' };
  if (typeof v === 'string') return { kind: 'string', value: v };
  if (typeof v === 'boolean') return { kind: 'bool', value: v };
  if (typeof v === 'number') return { kind: 'number', text: goFloatText(v) };
  if (typeof v === 'bigint') return { kind: 'number', text: v.toString() };
  if (Array.isArray(v)) return { kind: 'array', items: v.map(goJsonNodeFromValue) };
  if (v instanceof Map) return { kind: 'object', members: [...v.entries()].map(([k, x]) => ({ key: String(k), value: goJsonNodeFromValue(x) })) };
  if (typeof v === 'object') return { kind: 'object', members: Object.entries(v).map(([k, x]) => ({ key: k, value: goJsonNodeFromValue(x) })) };
  return { kind: 'string', value: String(v) };
}

/** Past this depth the plain value is built without recursion (nesting up to Go's 10000). */
const recursionLimit = 200;
const tooDeep = Symbol('too deep');

/** Recursive, for the usual shallow values; throws tooDeep past recursionLimit. */
function shallowValue(n: GoJsonNode, depth: number): JsonValue {
  switch (n.kind) {
    case 'object': {
      if (depth > recursionLimit) throw tooDeep;
      const o: Record<string, JsonValue> = {};
      for (const m of n.members) setOwn(o, m.key, shallowValue(m.value, depth + 1));
      return o;
    }
    case 'array': {
      if (depth > recursionLimit) throw tooDeep;
      const a: JsonValue[] = new Array<JsonValue>(n.items.length);
      for (let i = 0; i < n.items.length; i++) a[i] = shallowValue(n.items[i], depth + 1);
      return a;
    }
    case 'string':
    case 'bool':
      return n.value;
    case 'number':
      return Number(n.text);
    case 'null':
      return null;
  }
}

/** The plain value of a node (duplicate keys: the last one wins, as in Go). */
export function goJsonNodeValue(root: GoJsonNode): JsonValue {
  try {
    return shallowValue(root, 0);
  } catch (e) {
    if (e !== tooDeep) throw e;
    return deepValue(root);
  }
}

/** goJsonNodeValue without recursion, for deeply nested values. */
function deepValue(root: GoJsonNode): JsonValue {
  const result: { v: JsonValue } = { v: null };
  const work: { node: GoJsonNode; assign: (v: JsonValue) => void }[] = [{ node: root, assign: (v) => (result.v = v) }];
  for (let w = work.pop(); w; w = work.pop()) {
    const { node, assign } = w;
    switch (node.kind) {
      case 'object': {
        const o: Record<string, JsonValue> = {};
        assign(o);
        // Pushed in reverse so members are assigned in document order (last duplicate wins).
        for (let i = node.members.length - 1; i >= 0; i--) {
          const m = node.members[i];
          work.push({ node: m.value, assign: (v) => setOwn(o, m.key, v) });
        }
        break;
      }
      case 'array': {
        const a: JsonValue[] = new Array<JsonValue>(node.items.length);
        assign(a);
        for (let i = node.items.length - 1; i >= 0; i--) work.push({ node: node.items[i], assign: (v) => (a[i] = v) });
        break;
      }
      case 'string':
      case 'bool':
        assign(node.value);
        break;
      case 'number':
        assign(Number(node.text));
        break;
      case 'null':
        assign(null);
        break;
    }
  }
  return result.v;
}

export function parseGoJson(input: Uint8Array | string): JsonValue {
  return goJsonNodeValue(parseGoJsonTree(input));
}

/** The word Go's UnmarshalTypeError uses for a JSON value ("object", "number", …). */
export function goJsonKindWord(n: GoJsonNode): string {
  switch (n.kind) {
    case 'bool':
      return 'bool';
    case 'null':
      return 'null';
    default:
      return n.kind;
  }
}

/** Go's `json: cannot unmarshal X into Go value of type T` (or struct-field form). */
export function goUnmarshalTypeError(value: string, goType: string, structField?: { struct: string; field: string }): string {
  if (structField) return `json: cannot unmarshal ${value} into Go struct field ${structField.struct}.${structField.field} of type ${goType}`;
  return `json: cannot unmarshal ${value} into Go value of type ${goType}`;
}

const hexDigits = '0123456789abcdef';

/** A JSON string literal escaped as Go's json.Marshal does (HTML-safe). */
export function goJsonQuoteString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) {
      out += `\\u${hexDigits[(c >> 12) & 15]}${hexDigits[(c >> 8) & 15]}${hexDigits[(c >> 4) & 15]}${hexDigits[c & 15]}`;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      out += s[i] + s[i + 1];
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else out += s[i];
  }
  return `${out}"`;
}

/** Compact JSON as Go's json.Marshal writes it; object keys keep their insertion order. */
export function goJsonStringify(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return goJsonQuoteString(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (v instanceof Uint8Array) return goJsonQuoteString(Buffer.from(v).toString('base64'));
      if (v instanceof Date) return goJsonQuoteString(v.toISOString());
      if (Array.isArray(v)) return `[${v.map(goJsonStringify).join(',')}]`;
      const parts: string[] = [];
      for (const [k, x] of Object.entries(v)) {
        if (x !== undefined) parts.push(`${goJsonQuoteString(k)}:${goJsonStringify(x)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return 'null';
  }
}
