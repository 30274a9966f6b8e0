// Upstream's runtime cost of the calls and operators whose work grows with their inputs
// (cel-go interpreter/runtimecost.go costCall, apiserver/pkg/cel/library/cost.go CallCost), for
// the ones cel-js implements itself: string building and traversal, conversions, comparisons,
// `in`. A node priced here costs what upstream charges for the call, charged from the evaluated
// operands before the call does its work, so a value doubled again and again runs out of budget
// instead of growing the server. Our own library functions charge themselves (environment.ts).
//
// One departure: upstream charges list concatenation O(1) (cel-go concatenates lazily); cel-js
// copies both lists, so `+` on lists costs one unit per element, which bounds what a request can
// build to about a million elements per expression.
import { charge } from './activeCost';
import { unitCost } from './cost';

/** A checked node as cel-js leaves it: `handle` applies the call or operator to evaluated operands. */
export interface HandledNode {
  op: string;
  args: unknown;
  /** Operands differ per op (two values for operators, an array for calls): assigned, never typed-called. */
  handle?: (...a: never[]) => unknown;
  /** The unit cost charged before the node evaluates (instrument.ts). */
  celCost?: number;
}

/** Length as upstream's actualSize: runes of a string, bytes, list elements, map entries; 1 for the rest. */
export function actualSize(v: unknown): number {
  if (typeof v === 'string' || v instanceof Uint8Array || Array.isArray(v)) return v.length;
  if (v instanceof Map || v instanceof Set) return v.size;
  if (v !== null && typeof v === 'object' && v.constructor === Object) return Object.keys(v).length;
  return 1;
}

const isSequence = (v: unknown): boolean => typeof v === 'string' || v instanceof Uint8Array;
/** ceil(size × StringTraversalCostFactor), for strings and bytes; 0 for what is not one. */
const traversal = (v: unknown): number => (isSequence(v) ? Math.ceil(actualSize(v) * unitCost.stringTraversalFactor) : 0);

type Cost = (operands: readonly unknown[]) => number | undefined;

/** Calls (receiver first for receiver-style calls) → their cost, or undefined to keep the unit cost. */
const callCosts: Readonly<Record<string, Cost>> = {
  startsWith: ([s]) => (isSequence(s) ? traversal(s) : undefined),
  endsWith: ([s]) => (isSequence(s) ? traversal(s) : undefined),
  contains: ([s, sub]) => (typeof s === 'string' ? traversal(s) * traversal(sub) : undefined),
  lowerAscii: ([s]) => (typeof s === 'string' ? traversal(s) : undefined),
  upperAscii: ([s]) => (typeof s === 'string' ? traversal(s) : undefined),
  trim: ([s]) => (typeof s === 'string' ? traversal(s) : undefined),
  substring: ([s]) => (typeof s === 'string' ? traversal(s) : undefined),
  // library/cost.go traversalCost: a string's length × 0.1, rounded down.
  indexOf: ([s]) => (typeof s === 'string' ? Math.floor(s.length * unitCost.stringTraversalFactor) : undefined),
  lastIndexOf: ([s]) => (typeof s === 'string' ? Math.floor(s.length * unitCost.stringTraversalFactor) : undefined),
  split: ([s]) => (typeof s === 'string' ? Math.ceil(s.length * 2 * unitCost.stringTraversalFactor) : undefined),
  // StringToBytes and BytesToString walk their argument.
  bytes: ([s]) => (typeof s === 'string' ? traversal(s) : undefined),
  string: ([b]) => (b instanceof Uint8Array ? traversal(b) : undefined),
};

/** Calls priced from their result (upstream: join costs twice the traversal of what it built). */
const resultCosts: Readonly<Record<string, (result: unknown) => number>> = {
  join: (r) => Math.ceil(actualSize(r) * 2 * unitCost.stringTraversalFactor),
};

const comparisons = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** Operators → their cost from the two operands. */
function operatorCost(op: string, l: unknown, r: unknown): number {
  if (op === '+') {
    if (Array.isArray(l) && Array.isArray(r)) return l.length + r.length;
    if (isSequence(l) && isSequence(r)) return Math.ceil((actualSize(l) + actualSize(r)) * unitCost.stringTraversalFactor);
    return unitCost.operation;
  }
  if (op === 'in') return Array.isArray(r) ? r.length : unitCost.operation;
  // O(min(m, n)): a scalar has size 1, which rounds up to 1.
  return Math.ceil(Math.min(actualSize(l), actualSize(r)) * unitCost.stringTraversalFactor);
}

/** Prices one checked node if upstream charges it by size: wraps its handle, zeroes its unit cost. */
export function priceBySize(n: HandledNode): void {
  const base = n.handle as ((...a: unknown[]) => unknown) | undefined;
  if (typeof base !== 'function') return;
  if (n.op === '+' || n.op === 'in' || comparisons.has(n.op)) {
    const op = n.op;
    n.celCost = 0;
    n.handle = function (this: unknown, l: unknown, r: unknown, ...rest: unknown[]): unknown {
      charge(operatorCost(op, l, r));
      return base.call(this, l, r, ...rest);
    };
    return;
  }
  if (n.op !== 'rcall' && n.op !== 'call') return;
  const name = (n.args as unknown[])[0] as string;
  const before = callCosts[name];
  const after = resultCosts[name];
  if (!before && !after) return;
  n.handle = function (this: unknown, operands: unknown[], ...rest: unknown[]): unknown {
    const cost = before?.(operands);
    if (cost !== undefined) charge(cost - unitCost.operation);
    const result = base.call(this, operands, ...rest);
    if (after && typeof result === 'string') charge(after(result) - unitCost.operation);
    return result;
  };
}
