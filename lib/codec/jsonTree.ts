// A JSON reader that keeps what JSON.parse hides: duplicate keys, key order and the exact
// text of numbers. Syntax errors carry Go's encoding/json wording (the apiserver echoes
// them) and the byte offset.
import { goQuoteByte } from './goText';

export type JNode =
  | { kind: 'object'; entries: Array<[string, JNode]> }
  | { kind: 'array'; items: JNode[] }
  | { kind: 'string'; value: string }
  | { kind: 'number'; raw: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'null' };

export class JSONSyntaxError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.name = 'JSONSyntaxError';
    this.offset = offset;
  }
}

/** Same limit as Go's scanner. */
const maxNestingDepth = 10000;

const eofMessage = 'unexpected end of JSON input';

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

type Container = { kind: 'object'; entries: Array<[string, JNode]> } | { kind: 'array'; items: JNode[] };
interface Frame {
  node: Container;
  key: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

const simpleEscapes = new Map<number, string>([
  [0x62, '\b'],
  [0x66, '\f'],
  [0x6e, '\n'],
  [0x72, '\r'],
  [0x74, '\t'],
  [0x5c, '\\'],
  [0x2f, '/'],
  [0x22, '"'],
]);

class Reader {
  i = 0;
  constructor(readonly b: Uint8Array) {}

  fail(context: string): never {
    if (this.i >= this.b.length) throw new JSONSyntaxError(eofMessage, this.b.length);
    throw new JSONSyntaxError(`invalid character ${goQuoteByte(this.b[this.i])} ${context}`, this.i);
  }
  skipSpace(): void {
    while (this.i < this.b.length && isSpace(this.b[this.i])) this.i++;
  }
  peek(): number {
    if (this.i >= this.b.length) throw new JSONSyntaxError(eofMessage, this.b.length);
    return this.b[this.i];
  }

  string(): string {
    const b = this.b;
    this.i++; // opening quote
    let out = '';
    let start = this.i;
    let pendingHigh = -1; // a \u high surrogate waiting for its low half
    const flushHigh = (): void => {
      if (pendingHigh >= 0) out += '\ufffd';
      pendingHigh = -1;
    };
    for (;;) {
      if (this.i >= b.length) throw new JSONSyntaxError(eofMessage, b.length);
      const c = b[this.i];
      if (c === 0x22) {
        if (this.i > start) {
          flushHigh();
          out += utf8.decode(b.subarray(start, this.i));
        }
        flushHigh();
        this.i++;
        return out;
      }
      if (c < 0x20) this.fail('in string literal');
      if (c !== 0x5c) {
        this.i++;
        continue;
      }
      if (this.i > start) {
        flushHigh();
        out += utf8.decode(b.subarray(start, this.i));
      }
      this.i++;
      const e = this.peek();
      const simple = simpleEscapes.get(e);
      if (simple !== undefined) {
        flushHigh();
        out += simple;
        this.i++;
      } else if (e === 0x75) {
        this.i++;
        let cp = 0;
        for (let k = 0; k < 4; k++) {
          const h = this.peek();
          if (!isHex(h)) this.fail('in \\u hexadecimal character escape');
          cp = cp * 16 + parseInt(String.fromCharCode(h), 16);
          this.i++;
        }
        if (cp >= 0xd800 && cp < 0xdc00) {
          flushHigh();
          pendingHigh = cp;
        } else if (cp >= 0xdc00 && cp < 0xe000) {
          if (pendingHigh >= 0) {
            out += String.fromCharCode(pendingHigh, cp);
            pendingHigh = -1;
          } else out += '\ufffd';
        } else {
          flushHigh();
          out += String.fromCharCode(cp);
        }
      } else this.fail('in string escape code');
      start = this.i;
    }
  }

  number(): string {
    const b = this.b;
    const start = this.i;
    if (b[this.i] === 0x2d) {
      this.i++;
      if (!isDigit(this.peek())) this.fail('in numeric literal');
    }
    if (b[this.i] === 0x30) this.i++;
    else while (this.i < b.length && isDigit(b[this.i])) this.i++;
    if (this.i < b.length && b[this.i] === 0x2e) {
      this.i++;
      if (!isDigit(this.peek())) this.fail('after decimal point in numeric literal');
      while (this.i < b.length && isDigit(b[this.i])) this.i++;
    }
    if (this.i < b.length && (b[this.i] === 0x65 || b[this.i] === 0x45)) {
      this.i++;
      if (this.peek() === 0x2b || this.peek() === 0x2d) this.i++;
      if (!isDigit(this.peek())) this.fail('in exponent of numeric literal');
      while (this.i < b.length && isDigit(b[this.i])) this.i++;
    }
    return utf8.decode(b.subarray(start, this.i));
  }

  literal(word: 'true' | 'false' | 'null'): void {
    this.i++;
    for (let k = 1; k < word.length; k++) {
      if (this.peek() !== word.charCodeAt(k)) this.fail(`in literal ${word} (expecting '${word[k]}')`);
      this.i++;
    }
  }

  /** Reads `"key"` and the colon after it. */
  key(): string {
    this.skipSpace();
    if (this.peek() !== 0x22) this.fail('looking for beginning of object key string');
    const k = this.string();
    this.skipSpace();
    if (this.peek() !== 0x3a) this.fail('after object key');
    this.i++;
    return k;
  }
}

/** Parses one JSON document (iteratively, so deep nesting cannot exhaust the stack). */
export function parseJSON(input: Uint8Array): JNode {
  const r: Reader = new Reader(input);
  const stack: Frame[] = [];
  for (;;) {
    // Expecting the beginning of a value.
    r.skipSpace();
    const c = r.peek();
    let value: JNode | undefined;
    if (c === 0x7b || c === 0x5b) {
      if (stack.length >= maxNestingDepth) r.fail('exceeded max depth');
      r.i++;
      r.skipSpace();
      const node: Container = c === 0x7b ? { kind: 'object', entries: [] } : { kind: 'array', items: [] };
      if (r.peek() === (c === 0x7b ? 0x7d : 0x5d)) {
        r.i++;
        value = node;
      } else {
        stack.push({ node, key: node.kind === 'object' ? r.key() : '' });
        continue;
      }
    } else if (c === 0x22) value = { kind: 'string', value: r.string() };
    else if (c === 0x2d || isDigit(c)) value = { kind: 'number', raw: r.number() };
    else if (c === 0x74) {
      r.literal('true');
      value = { kind: 'bool', value: true };
    } else if (c === 0x66) {
      r.literal('false');
      value = { kind: 'bool', value: false };
    } else if (c === 0x6e) {
      r.literal('null');
      value = { kind: 'null' };
    } else r.fail('looking for beginning of value');

    // A value is complete: attach it and close every container that ends here.
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top) {
        r.skipSpace();
        if (r.i < input.length) r.fail('after top-level value');
        return value;
      }
      if (top.node.kind === 'object') top.node.entries.push([top.key, value]);
      else top.node.items.push(value);
      r.skipSpace();
      const d = r.peek();
      if (d === 0x2c) {
        r.i++;
        if (top.node.kind === 'object') top.key = r.key();
        break;
      }
      if (d === (top.node.kind === 'object' ? 0x7d : 0x5d)) {
        r.i++;
        stack.pop();
        value = top.node;
        continue;
      }
      r.fail(top.node.kind === 'object' ? 'after object key:value pair' : 'after array element');
    }
  }
}

/** Sets a key on a plain object without tripping the `__proto__` setter. */
export function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** The plain JavaScript value of a node (duplicate keys: the last wins, as in Go). */
export function toPlain(n: JNode): unknown {
  switch (n.kind) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const [k, v] of n.entries) setOwn(o, k, toPlain(v));
      return o;
    }
    case 'array':
      return n.items.map(toPlain);
    case 'string':
    case 'bool':
      return n.value;
    case 'number':
      return Number(n.raw);
    case 'null':
      return null;
  }
}

/** The node for a plain value (numbers rendered the way Go's encoder writes a float64). */
export function fromPlain(v: unknown): JNode {
  if (v === null || v === undefined) return { kind: 'null' };
  if (typeof v === 'string') return { kind: 'string', value: v };
  if (typeof v === 'boolean') return { kind: 'bool', value: v };
  if (typeof v === 'number') return { kind: 'number', raw: goFloatText(v) };
  if (typeof v === 'bigint') return { kind: 'number', raw: v.toString() };
  if (Array.isArray(v)) return { kind: 'array', items: v.map(fromPlain) };
  if (v instanceof Map) return { kind: 'object', entries: [...v.entries()].map(([k, x]) => [String(k), fromPlain(x)]) };
  if (typeof v === 'object') return { kind: 'object', entries: Object.entries(v).map(([k, x]) => [k, fromPlain(x)]) };
  return { kind: 'string', value: String(v) };
}

/** Go's json encoding of a float64: integers below 1e21 in full, else the shortest form. */
export function goFloatText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return BigInt(n).toString();
  return String(n);
}
