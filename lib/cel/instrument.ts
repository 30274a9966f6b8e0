// Cost counting inside @marcbachmann/cel-js. The library has no cost API, but every child
// evaluation goes through evaluator.run(node, ctx) and function handlers run with the evaluator
// as `this`. Per evaluation we put a thin evaluator in front of the library's that charges each
// node before running it, so a runaway comprehension stops at the limit. Calls and operators whose
// work grows with their operands are priced by size (sizedCalls.ts), and regular expressions run
// on the linear-time engine (regexCalls.ts), both by wrapping the checked node's handle.
import type { ASTNode } from '@marcbachmann/cel-js';
import { activeTracker, charge } from './activeCost';
import type { CostTracker } from './cost';
import { unitCost } from './cost';
import { typedListAdd, typedListEquals } from './listTypes';
import { useLinearRegex } from './regexCalls';
import { priceBySize } from './sizedCalls';

interface LibEvaluator {
  run(node: ASTNode, ctx: unknown): unknown;
  debugTypeDeep(v: unknown): unknown;
  debugRuntimeType(v: unknown, t: unknown): unknown;
}
interface EvalNode {
  op: string;
  args: unknown;
  evaluate(ev: LibEvaluator, node: EvalNode, ctx: unknown): unknown;
  /** Set by cel-js's checker on operators and calls: applies them to evaluated operands. */
  handle?: BinaryHandle;
  /** Set by instrument on every node of the checked tree: its unit cost, looked up once. */
  celCost?: number;
}
type BinaryHandle = (this: EvalNode, l: unknown, r: unknown, ast: unknown, ev: unknown) => unknown;

/** Set and map lists (§4.10.5) decide ==, != and + themselves when they are the left operand. */
function wrapListOperator(n: EvalNode): void {
  const base = n.handle;
  if (typeof base !== 'function') return;
  const op = n.op;
  n.handle = function (l, r, ast, ev) {
    if (op === '+') return typedListAdd(l, r) ?? base.call(this, l, r, ast, ev);
    const eq = typedListEquals(l, r);
    if (eq === undefined) return base.call(this, l, r, ast, ev);
    return op === '==' ? eq : !eq;
  };
}

/** The evaluator our library functions see as `this`: they charge their own size-based cost. */
export interface CostedEvaluator {
  celCost: CostTracker;
}

const nodeCost: Record<string, number> = {
  value: 0,
  id: unitCost.selectAndIdent,
  '.': unitCost.selectAndIdent,
  '.?': unitCost.selectAndIdent,
  '[]': unitCost.selectAndIdent,
  '[?]': unitCost.selectAndIdent,
  list: unitCost.listCreate,
  map: unitCost.mapCreate,
  '||': 0,
  '&&': 0,
  '?:': 0,
  comprehension: 0,
  accuValue: 0,
};

/** Instruments a parsed and checked expression's root node; throws RegexLiteralError for a bad literal pattern. */
export function instrument(root: ASTNode): void {
  const node = root as unknown as EvalNode;
  walk(root, (n) => {
    n.celCost = nodeCost[n.op] ?? unitCost.operation;
    if (n.op === '==' || n.op === '!=' || n.op === '+') wrapListOperator(n);
    priceBySize(n);
    useLinearRegex(n);
  });
  const base = Object.getPrototypeOf(node).evaluate as EvalNode['evaluate'];
  const hook: EvalNode['evaluate'] = function (this: EvalNode, ev, n, ctx) {
    if (!activeTracker()) return base.call(this, ev, n, ctx);
    charge(node.celCost ?? unitCost.operation);
    try {
      return base.call(this, costedFor(ev), n, ctx);
    } finally {
      this.evaluate = hook;
    }
  };
  node.evaluate = hook;
}

/** One charging evaluator per library evaluator (made once: evaluations are frequent, evaluators few). */
const costedEvaluators = new WeakMap<LibEvaluator, LibEvaluator & CostedEvaluator>();

function costedFor(ev: LibEvaluator): LibEvaluator & CostedEvaluator {
  let costed = costedEvaluators.get(ev);
  if (costed) return costed;
  costed = Object.create(ev) as LibEvaluator & CostedEvaluator;
  Object.defineProperty(costed, 'celCost', { get: () => activeTracker() });
  Object.assign(costed, {
    debugTypeDeep: (v: unknown) => ev.debugTypeDeep(v),
    debugRuntimeType: (v: unknown, t: unknown) => ev.debugRuntimeType(v, t),
    run(this: LibEvaluator, child: ASTNode, c: unknown): unknown {
      const cn = child as unknown as EvalNode;
      // Nodes made after checking (macro expansions) have no celCost: looked up then.
      charge(cn.celCost ?? nodeCost[cn.op] ?? unitCost.operation);
      return cn.evaluate(this, cn, c);
    },
  });
  costedEvaluators.set(ev, costed);
  return costed;
}

/** Every node of the tree, the expansions of macros (comprehensions) included. */
function walk(n: unknown, visit: (n: EvalNode) => void, seen = new Set<unknown>()): void {
  if (Array.isArray(n)) {
    for (const x of n) walk(x, visit, seen);
    return;
  }
  // A node shared by a macro's expansion is wrapped once.
  if (n === null || typeof n !== 'object' || !('op' in n) || !('args' in n) || seen.has(n)) return;
  seen.add(n);
  const node = n as EvalNode;
  visit(node);
  if (node.op === 'comprehension') {
    const c = node.args as { iterable?: unknown; init?: unknown; step?: unknown };
    walk([c.iterable, c.init, c.step], visit, seen);
  } else walk(node.args, visit, seen);
}
