// Evaluation of a parsed JSONPath template over decoded JSON (client-go's jsonpath.go FindResults
// on unstructured content). Each step returns its values and its error as upstream's functions do,
// because some callers look at the values a failed step returned (an "exists" filter counts them).
// Bounded: every value a step produces is charged to a budget, so `..` over a large object or a
// union of many members cannot hold the event loop; `..` walks with its own stack, not recursion.
import { goFormatFloat, goFormatValue, goKind, goTypeNames } from '../goFormat';
import { getOwn, hasOwn, isJsonObject, type JsonValue } from '../jsonValue';
import { GoFloat, compareWith } from './compare';
import { JsonPathError, JsonPathLimitError } from './errors';
import type { JsonPathNode, ListNode, SliceParam } from './nodes';

/** A value found: decoded JSON (bytes of a string's wildcard are numbers). */
export type JsonPathValue = JsonValue;

/** Values produced by all steps of one evaluation, past which it stops with JsonPathLimitError. */
export const maxEvaluationSteps = 200_000;

export interface FindOptions {
  /** Upstream's AllowMissingKeys: a missing field is no result instead of "x is not found". */
  allowMissingKeys?: boolean;
  maxSteps?: number;
}

type Value = JsonPathValue | GoFloat | undefined;
interface Out {
  values: Value[];
  error?: string;
}

const encoder = new TextEncoder();

function isNil(v: Value): boolean {
  return v === null || v === undefined;
}

function typeName(v: Value): string {
  if (v instanceof GoFloat) return 'float64';
  return goTypeNames[goKind(v)];
}

class Evaluation {
  private steps = 0;
  // The range/end bookkeeping of upstream's JSONPath struct.
  private beginRange = 0;
  private inRange = 0;
  private endRange = 0;
  private lastEndNode = -1;

  constructor(
    private readonly nodes: readonly JsonPathNode[],
    private readonly allowMissingKeys: boolean,
    private readonly maxSteps: number,
  ) {}

  /**
   * FindResults from the template's node `from` on: upstream re-points the parser's root at the
   * nodes after a `range` and calls itself once per value ranged over; `from` is that slice.
   */
  findFrom(from: number, data: Value): Value[][] {
    const cur: Value[] = [data];
    const full: Value[][] = [];
    for (let i = from; i < this.nodes.length; i++) {
      const out = this.walk(cur, this.nodes[i]);
      if (out.error !== undefined) throw new JsonPathError(out.error);
      if (this.endRange > 0 && this.endRange <= this.inRange) {
        // an end: this pass over the range's body is over
        this.endRange--;
        this.lastEndNode = i;
        break;
      }
      if (this.beginRange > 0) {
        this.beginRange--;
        this.inRange++;
        if (out.values.length > 0) {
          for (const v of out.values) full.push(...this.findFrom(i + 1, v));
        } else {
          // An empty range still reads its body once, to reach its end.
          this.findFrom(i + 1, null);
        }
        this.inRange--;
        for (let k = i + 1; k < this.nodes.length; k++) {
          if (k === this.lastEndNode) {
            i = k;
            break;
          }
        }
        continue;
      }
      full.push(out.values);
    }
    return full;
  }

  private charge(n: number): void {
    this.steps += n;
    if (this.steps > this.maxSteps) throw new JsonPathLimitError(`jsonpath evaluation took more than ${this.maxSteps} steps`);
  }

  walk(input: Value[], node: JsonPathNode): Out {
    this.charge(1);
    switch (node.type) {
      case 'list':
        return this.evalList(input, node);
      case 'text':
        return { values: [node.text] };
      case 'field':
        return this.evalField(input, node.name);
      case 'array':
        return this.evalArray(input, node.params);
      case 'filter':
        return this.evalFilter(input, node.left, node.right, node.operator);
      case 'int':
      case 'bool':
        this.charge(input.length);
        return { values: input.map(() => node.value) };
      case 'float':
        this.charge(input.length);
        return { values: input.map(() => new GoFloat(node.value)) };
      case 'wildcard':
        return this.evalWildcard(input);
      case 'recursive':
        return this.evalRecursive(input);
      case 'union':
        return this.evalUnion(input, node.nodes);
      case 'identifier':
        return this.evalIdentifier(input, node.name);
    }
  }

  private evalIdentifier(input: Value[], name: string): Out {
    if (name === 'range') {
      this.beginRange++;
      return { values: input };
    }
    if (name === 'end') {
      if (this.inRange > 0) {
        this.endRange++;
        return { values: [] };
      }
      return { values: [], error: 'not in range, nothing to end' };
    }
    return { values: input, error: `unrecognized identifier ${name}` };
  }

  evalList(input: Value[], list: ListNode): Out {
    let cur = input;
    for (const n of list.nodes) {
      const out = this.walk(cur, n);
      if (out.error !== undefined) return out;
      cur = out.values;
    }
    return { values: cur };
  }

  private evalField(input: Value[], name: string): Out {
    const results: Value[] = [];
    if (input.length === 0) return { values: results };
    for (const v of input) {
      if (isNil(v)) continue;
      if (isJsonObject(v) && hasOwn(v, name)) results.push(getOwn(v, name) as JsonValue);
    }
    this.charge(results.length + 1);
    if (results.length === 0 && !this.allowMissingKeys) return { values: results, error: `${name} is not found` };
    return { values: results };
  }

  private evalArray(input: Value[], params: readonly [SliceParam, SliceParam, SliceParam]): Out {
    const result: Value[] = [];
    for (const v of input) {
      if (isNil(v)) continue;
      if (!Array.isArray(v)) return { values: input, error: `${typeName(v)} is not array or slice` };
      const len = v.length;
      let start = params[0].known ? params[0].value : 0;
      if (start < 0) start += len;
      let end = params[1].known ? params[1].value : len;
      if (end < 0 || (end === 0 && params[1].derived)) end += len;
      if (end === start) return { values: result }; // zero elements asked for: upstream stops here
      if (start >= len || start < 0) return { values: input, error: `array index out of bounds: index ${start}, length ${len}` };
      if (end > len || end < 0) return { values: input, error: `array index out of bounds: index ${end - 1}, length ${len}` };
      if (start > end) return { values: input, error: `starting index ${start} is greater than ending index ${end}` };
      let step = 1;
      if (params[2].known) {
        if (params[2].value <= 0) return { values: input, error: 'step must be > 0' };
        step = params[2].value;
      }
      this.charge(Math.ceil((end - start) / step));
      for (let i = start; i < end; i += step) result.push(v[i]);
    }
    return { values: result };
  }

  private evalUnion(input: Value[], lists: readonly ListNode[]): Out {
    const result: Value[] = [];
    for (const list of lists) {
      const out = this.evalList(input, list);
      if (out.error !== undefined) return { values: input, error: out.error };
      result.push(...out.values);
    }
    return { values: result };
  }

  private evalWildcard(input: Value[]): Out {
    const results: Value[] = [];
    for (const v of input) {
      if (isNil(v)) continue;
      if (Array.isArray(v)) {
        this.charge(v.length);
        results.push(...v);
      } else if (typeof v === 'string') {
        // A Go string indexes to its bytes.
        const bytes = encoder.encode(v);
        this.charge(bytes.length);
        for (const b of bytes) results.push(b);
      } else if (isJsonObject(v)) {
        const keys = Object.keys(v);
        this.charge(keys.length);
        for (const k of keys) results.push(getOwn(v, k) as JsonValue);
      }
    }
    return { values: results };
  }

  /** Every container (non-empty map, list or string) at or under each input, parents first. */
  private evalRecursive(input: Value[]): Out {
    const result: Value[] = [];
    const stack: Value[] = [];
    for (let i = input.length - 1; i >= 0; i--) stack.push(input[i]);
    while (stack.length > 0) {
      const v = stack.pop();
      this.charge(1);
      if (isNil(v)) continue;
      if (typeof v === 'string') {
        // Its bytes are leaves: the string itself is listed, nothing under it.
        if (v.length > 0) result.push(v);
      } else if (Array.isArray(v)) {
        if (v.length === 0) continue;
        result.push(v);
        for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
      } else if (isJsonObject(v)) {
        const keys = Object.keys(v);
        if (keys.length === 0) continue;
        result.push(v);
        for (let i = keys.length - 1; i >= 0; i--) stack.push(getOwn(v, keys[i]) as JsonValue);
      }
    }
    return { values: result };
  }

  private evalFilter(input: Value[], left: ListNode, right: ListNode, operator: string): Out {
    const results: Value[] = [];
    for (const v of input) {
      if (!Array.isArray(v)) {
        const shown = v instanceof GoFloat ? goFormatFloat(v.value) : goFormatValue(v);
        return { values: input, error: `${shown} is not array or slice and cannot be filtered` };
      }
      this.charge(v.length);
      for (const item of v) {
        const temp: Value[] = [item];
        const lefts = this.evalList(temp, left);
        if (operator === 'exists') {
          if (lefts.values.length > 0) results.push(item);
          continue;
        }
        if (lefts.error !== undefined) return { values: input, error: lefts.error };
        if (lefts.values.length === 0) continue;
        if (lefts.values.length > 1) return { values: input, error: 'can only compare one element at a time' };
        const rights = this.evalList(temp, right);
        if (rights.error !== undefined) return { values: input, error: rights.error };
        if (rights.values.length === 0) continue;
        if (rights.values.length > 1) return { values: input, error: 'can only compare one element at a time' };
        let pass: boolean;
        try {
          pass = compareWith(operator, lefts.values[0], rights.values[0]);
        } catch (e) {
          if (e instanceof JsonPathError && !(e instanceof JsonPathLimitError)) return { values: results, error: e.message };
          throw e;
        }
        if (pass) results.push(item);
      }
    }
    return { values: results };
  }
}

function plain(v: Value): JsonPathValue {
  if (v instanceof GoFloat) return v.value;
  return v === undefined ? null : v;
}

/**
 * Upstream's FindResults: one list of values per top-level part of the template (a text part
 * gives its text; a range's body one list per part per value). Throws JsonPathError with client-go's message where upstream returns an error,
 * JsonPathLimitError past the step budget.
 */
export function findResults(template: ListNode, data: JsonPathValue, opts: FindOptions = {}): JsonPathValue[][] {
  const ev = new Evaluation(template.nodes, opts.allowMissingKeys ?? false, opts.maxSteps ?? maxEvaluationSteps);
  return ev.findFrom(0, data).map((values) => values.map(plain));
}
