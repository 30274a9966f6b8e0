// Cost counting inside @marcbachmann/cel-js. The library has no cost API, but every child
// evaluation goes through evaluator.run(node, ctx) and function handlers run with the evaluator
// as `this`. Per evaluation we put a thin evaluator in front of the library's that charges each
// node before running it, so a runaway comprehension stops at the limit.
import type { ASTNode } from '@marcbachmann/cel-js';
import { CostTracker, regexCost, traversalCost, unitCost } from './cost';
import { typedListAdd, typedListEquals } from './listTypes';

interface LibEvaluator {
  run(node: ASTNode, ctx: unknown): unknown;
  debugTypeDeep(v: unknown): unknown;
  debugRuntimeType(v: unknown, t: unknown): unknown;
}
interface EvalNode {
  op: string;
  args: unknown;
  evaluate(ev: LibEvaluator, node: EvalNode, ctx: unknown): unknown;
  /** Set by cel-js's checker on binary operators: applies the operator to evaluated operands. */
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

/** Builtin receiver functions whose cost depends on their inputs. */
const sizedBuiltins = new Set(['matches', 'contains', 'startsWith', 'endsWith']);

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

let active: CostTracker | undefined;

/** Runs fn(arg) with tracker charged by the instrumented root; evaluation is synchronous. */
export function withTracker<A, T>(tracker: CostTracker, fn: (arg: A) => T, arg: A): T {
  const prev = active;
  active = tracker;
  try {
    return fn(arg);
  } finally {
    active = prev;
  }
}

/** Instruments a parsed and checked expression's root node. */
export function instrument(root: ASTNode): void {
  const node = root as unknown as EvalNode;
  const recorded = new Set<unknown>();
  walk(root, (n) => {
    n.celCost = nodeCost[n.op] ?? unitCost.operation;
    if (n.op === '==' || n.op === '!=' || n.op === '+') wrapListOperator(n);
    const a = n.args as unknown[];
    if (n.op === 'rcall' && sizedBuiltins.has(a[0] as string)) {
      recorded.add(a[1]);
      for (const x of a[2] as unknown[]) recorded.add(x);
    }
  });
  const base = Object.getPrototypeOf(node).evaluate as EvalNode['evaluate'];
  // One state object per root, reused: a root is never evaluated inside its own evaluation.
  const own: RootState = { tracker: new CostTracker(0), recorded, values: undefined };
  let values: Map<unknown, unknown> | undefined;
  const recordedList = [...recorded];
  const hook: EvalNode['evaluate'] = function (this: EvalNode, ev, n, ctx) {
    const tracker = active;
    if (!tracker) return base.call(this, ev, n, ctx);
    const prev = state;
    own.tracker = tracker;
    // The root's map, reused: emptied after each evaluation so it keeps no request data.
    own.values = recorded.size ? (values ??= new Map()) : undefined;
    state = own;
    tracker.add(nodeCost[node.op] ?? unitCost.operation);
    try {
      const v = base.call(this, costedFor(ev), n, ctx);
      if (node.op === 'rcall' && state.values) chargeSized(tracker, node, state.values);
      return v;
    } finally {
      // Overwritten, not deleted: deleting shrinks (reallocates) the map's table.
      if (own.values) for (let i = 0; i < recordedList.length; i++) own.values.set(recordedList[i], undefined);
      state = prev;
      this.evaluate = hook;
    }
  };
  node.evaluate = hook;
}

/** The running root's tracker and the operand values its sized builtins are charged by. */
interface RootState {
  tracker: CostTracker;
  recorded: ReadonlySet<unknown>;
  values: Map<unknown, unknown> | undefined;
}
let state: RootState | undefined;

/** One charging evaluator per library evaluator (made once: evaluations are frequent, evaluators few). */
const costedEvaluators = new WeakMap<LibEvaluator, LibEvaluator & CostedEvaluator>();

function costedFor(ev: LibEvaluator): LibEvaluator & CostedEvaluator {
  let costed = costedEvaluators.get(ev);
  if (costed) return costed;
  costed = Object.create(ev) as LibEvaluator & CostedEvaluator;
  Object.defineProperty(costed, 'celCost', { get: () => state!.tracker });
  Object.assign(costed, {
    debugTypeDeep: (v: unknown) => ev.debugTypeDeep(v),
    debugRuntimeType: (v: unknown, t: unknown) => ev.debugRuntimeType(v, t),
    run(this: LibEvaluator, child: ASTNode, c: unknown): unknown {
      const s = state!;
      const cn = child as unknown as EvalNode;
      // Nodes made after checking (macro expansions) have no celCost: looked up then.
      s.tracker.add(cn.celCost ?? nodeCost[cn.op] ?? unitCost.operation);
      const v = cn.evaluate(this, cn, c);
      if (s.values) {
        if (s.recorded.has(child)) s.values.set(child, v);
        if (cn.op === 'rcall') chargeSized(s.tracker, cn, s.values);
      }
      return v;
    },
  });
  costedEvaluators.set(ev, costed);
  return costed;
}

function chargeSized(tracker: CostTracker, n: EvalNode, values: Map<unknown, unknown>): void {
  const [name, receiver, args] = n.args as [string, unknown, unknown[]];
  if (!sizedBuiltins.has(name)) return;
  const r = values.get(receiver);
  const a = values.get(args[0]);
  if (name === 'matches' && typeof r === 'string' && typeof a === 'string') tracker.add(regexCost(r, a));
  else tracker.add(Math.min(traversalCost(r), traversalCost(a)));
}

function walk(n: unknown, visit: (n: EvalNode) => void): void {
  if (Array.isArray(n)) {
    for (const x of n) walk(x, visit);
    return;
  }
  if (n === null || typeof n !== 'object' || !('op' in n) || !('args' in n)) return;
  visit(n as EvalNode);
  walk((n as EvalNode).args, visit);
}
