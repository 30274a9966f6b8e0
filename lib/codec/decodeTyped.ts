// A JSON request body read straight into the schema's form, without the node tree that
// decodeTree walks (issue 14: building the tree was about half of a body's decode). It is a
// speculation: it handles the bodies clients send every day and gives up (undefined) on anything
// that needs Go's errors, warnings or merge rules — a syntax or type error, an unknown or
// duplicate field, a duplicate map key, an unparsable time or base64 value, a number beyond
// what it checks, deep nesting. The caller then decodes the same bytes the exact way (parse
// tree + decodeTree), so every answer, message and warning stays decodeTree's.
import type { FieldSchema, ObjectSchema } from '../api/schema';
import { GoJsonScanner } from '../machinery/goJson';
import type { JsonValue } from '../machinery/jsonValue';
import { setOwn, shareableJson } from '../machinery/jsonValue';
import { decodeGoBase64 } from './goBase64';
import { canonicalMicroTime, canonicalTime } from './goTime';
import { goZero } from './goZero';

/** Thrown inside to give up; never escapes decodeTyped. */
const giveUp = Symbol('give up');

/** Deeper than this the exact path decides (Go's and our nesting limits are far beyond). */
const maxDepth = 64;

/** Integer literals up to this many characters are exact as a double (below 2^53). */
const safeIntegerText = 15;

const int32Min = -(2 ** 31);
const int32Max = 2 ** 31 - 1;
const int64Range: [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];

class TypedReader extends GoJsonScanner {
  private level = 0;

  /**
   * A comma-separated run up to `close` (`}` or `]`), its opening bracket current: one() is
   * called positioned at each entry.
   */
  private sequence(close: number, one: () => void): void {
    if (++this.level > maxDepth) throw giveUp;
    this.pos++;
    this.skipSpace();
    if (this.peek() === close) {
      this.pos++;
      this.level--;
      return;
    }
    for (;;) {
      one();
      this.skipSpace();
      const c = this.peek();
      this.pos++;
      if (c === close) break;
      if (c !== 0x2c) throw giveUp;
      this.skipSpace();
    }
    this.level--;
  }

  /** An object's members, `{` already current; calls member(key) positioned at each value. */
  private members(member: (key: string) => void): void {
    this.sequence(0x7d, () => {
      if (this.peek() !== 0x22) throw giveUp;
      const key = this.string();
      this.skipSpace();
      if (this.peek() !== 0x3a) throw giveUp;
      this.pos++;
      this.skipSpace();
      member(key);
    });
  }

  struct(schema: ObjectSchema): Record<string, unknown> {
    if (this.peek() !== 0x7b) throw giveUp;
    const out: Record<string, unknown> = {};
    const fields = schema.fields;
    const seen: string[] = [];
    this.members((key) => {
      const field = Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : undefined;
      // Unknown fields warn or fail, duplicates merge: decodeTree's business.
      if (!field || seen.includes(key)) throw giveUp;
      seen.push(key);
      if (this.peek() === 0x6e) {
        // null leaves a field of a new struct unset, whatever its type (decodeTree's KEEP and DELETE).
        this.literal('null');
        return;
      }
      out[key] = this.value(field);
    });
    return out;
  }

  /** A value that is not null, of field type f. */
  private value(f: FieldSchema): unknown {
    const c = this.peek();
    switch (f.type) {
      case 'string': {
        if (c !== 0x22) throw giveUp;
        const s = this.string();
        if (f.format === 'date-time') {
          const t = f.micro === true ? canonicalMicroTime(s) : canonicalTime(s);
          if (t === undefined) throw giveUp;
          return t;
        }
        if (f.format === 'byte') return decodeGoBase64(s).toString('base64');
        return s;
      }
      case 'integer':
        return this.integer(f.format);
      case 'number':
      case 'intOrString':
        // Kept exactly as sent: the general decoder does that.
        throw giveUp;
      case 'boolean':
        if (c === 0x74) {
          this.literal('true');
          return true;
        }
        if (c === 0x66) {
          this.literal('false');
          return false;
        }
        throw giveUp;
      case 'object':
        return this.struct(f.ref());
      case 'array':
        if (c !== 0x5b) throw giveUp;
        return this.elements(() => this.element(f.items));
      case 'map': {
        if (c !== 0x7b) throw giveUp;
        const out: Record<string, unknown> = {};
        this.members((key) => {
          if (Object.prototype.hasOwnProperty.call(out, key)) throw giveUp;
          setOwn(out, key, this.element(f.values));
        });
        return out;
      }
      case 'any': {
        // Nothing writes into a free-form value (FieldsV1) once read: normalize's copy may share it.
        const v = this.any();
        return typeof v === 'object' && v !== null ? shareableJson(v) : v;
      }
    }
  }

  /** An array item or map value: null is the element type's zero value. */
  private element(f: FieldSchema): unknown {
    if (this.peek() !== 0x6e) return this.value(f);
    this.literal('null');
    return goZero(f);
  }

  /** An array's items, `[` current; read(), positioned at each item, gives its value. */
  private elements<T>(read: () => T): T[] {
    const out: T[] = [];
    this.sequence(0x5d, () => out.push(read()));
    return out;
  }

  private integer(format: 'int32' | 'int64'): number {
    const c = this.peek();
    if (c !== 0x2d && !(c >= 0x30 && c <= 0x39)) throw giveUp;
    const text = this.number();
    if (!/^-?\d+$/.test(text)) throw giveUp;
    if (text.length <= safeIntegerText) {
      const n = Number(text);
      if (format === 'int32' && (n < int32Min || n > int32Max)) throw giveUp;
      // Through BigInt "-0" is 0.
      return n === 0 ? 0 : n;
    }
    const big = BigInt(text);
    if (format === 'int32' || big < int64Range[0] || big > int64Range[1]) throw giveUp;
    return Number(big);
  }

  /** A free-form value as its plain JSON value (later duplicates win, as goJsonNodeValue has it). */
  private any(): JsonValue {
    const c = this.peek();
    if (c === 0x7b) {
      const out: Record<string, JsonValue> = {};
      this.members((key) => setOwn(out, key, this.any()));
      return out;
    }
    if (c === 0x5b) return this.elements(() => this.any());
    switch (c) {
      case 0x22:
        return this.string();
      case 0x74:
        this.literal('true');
        return true;
      case 0x66:
        this.literal('false');
        return false;
      case 0x6e:
        this.literal('null');
        return null;
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return Number(this.number());
        throw giveUp;
    }
  }

  /** Nothing but white space after the document. */
  atEnd(): boolean {
    this.skipSpace();
    return this.pos === this.length;
  }
}

/**
 * The body decoded into `schema`'s form exactly as parseGoJsonTree + decodeTree would decode it
 * when they find nothing to report, or undefined when this fast path gives up (see above).
 */
export function decodeTyped(body: Uint8Array, schema: ObjectSchema): Record<string, unknown> | undefined {
  const r = new TypedReader(body);
  try {
    r.skipSpace();
    const value = r.struct(schema);
    return r.atEnd() ? value : undefined;
  } catch {
    // giveUp, a syntax error (GoJsonSyntaxError), a base64 error: all the exact path's to report.
    return undefined;
  }
}
