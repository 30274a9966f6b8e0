// Static cost estimation (spec §4.10.6, after cel-go's checker/cost.go and apiserver's
// SchemaDeclType sizes): the worst-case cost of an expression from the sizes its schema allows —
// maxLength, maxItems, maxProperties, or, without them, what fits in one request (3 MiB). The
// unit costs are the runtime counter's (cost.ts). Comprehensions multiply their body by the
// largest size of what they walk. Upstream applies the per-expression limit to this estimate
// where it estimates at write time (CRD validation rules).
import type { ASTNode } from '@marcbachmann/cel-js';
import type { FieldSchema, ObjectSchema } from '../api/schema';
import { perCallLimit, unitCost } from './cost';
import type { TypedChecker } from './typing';

/** apiextensions' maxRequestSizeBytes: an unbounded string or list is sized by what fits in one request. */
export const maxRequestSizeBytes = 3 * 1024 * 1024;

interface Estimate {
  cost: number;
  /** Largest length (string characters, list items, map entries). */
  size: number;
  /** The schema of the value, when known (for field selections). */
  field?: FieldSchema;
}

type Scope = ReadonlyMap<string, FieldSchema | undefined>;

/** Smallest JSON for a value of the schema: upstream's MinSerializedSize. */
function minSize(f: FieldSchema | undefined): number {
  switch (f?.type) {
    case 'string':
      return 2;
    case 'integer':
    case 'number':
    case 'intOrString':
      return 1;
    case 'boolean':
      return 4;
    default:
      return 2;
  }
}

/** Largest size of a value of the schema (upstream's estimateMax… helpers). */
function maxSize(f: FieldSchema | undefined): number {
  const unbounded = maxRequestSizeBytes - 2;
  switch (f?.type) {
    case 'string':
      return f.maxLength ?? unbounded;
    case 'array':
      return f.maxItems ?? Math.floor(unbounded / (minSize(f.items) + 1));
    case 'map':
      return f.maxProperties ?? Math.floor(unbounded / (minSize(f.values) + 4));
    case 'integer':
    case 'number':
    case 'boolean':
      return 1;
    default:
      return unbounded;
  }
}

const traversal = (n: number): number => Math.ceil(n * unitCost.stringTraversalFactor);
const comprehensions = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

function child(f: FieldSchema | undefined, name: string): FieldSchema | undefined {
  if (f?.type === 'object') return f.ref().fields[name];
  if (f?.type === 'map') return f.values;
  return undefined;
}

function element(f: FieldSchema | undefined): FieldSchema | undefined {
  if (f?.type === 'array') return f.items;
  if (f?.type === 'map') return f.values;
  return undefined;
}

function estimate(node: ASTNode, scope: Scope): Estimate {
  const n = node as unknown as { op: string; args: unknown };
  const est = (x: unknown, s: Scope = scope): Estimate => estimate(x as ASTNode, s);
  switch (n.op) {
    case 'value': {
      const v = n.args;
      return { cost: 0, size: typeof v === 'string' ? v.length : 1 };
    }
    case 'id': {
      const name = n.args as string;
      const field = scope.get(name);
      return { cost: unitCost.selectAndIdent, size: maxSize(field), field };
    }
    case '.':
    case '.?': {
      const [target, name] = n.args as [unknown, string];
      const t = est(target);
      const field = child(t.field, name);
      return { cost: t.cost + unitCost.selectAndIdent, size: maxSize(field), field };
    }
    case '[]':
    case '[?]': {
      const [target, index] = n.args as [unknown, unknown];
      const t = est(target);
      const i = est(index);
      const field = element(t.field);
      return { cost: t.cost + i.cost + unitCost.selectAndIdent, size: maxSize(field), field };
    }
    case 'list': {
      const items = (n.args as unknown[]).map((x) => est(x));
      return { cost: unitCost.listCreate + items.reduce((a, b) => a + b.cost, 0), size: items.length };
    }
    case 'map': {
      const entries = (n.args as [unknown, unknown][]).map(([k, v]) => est(k).cost + est(v).cost);
      return { cost: unitCost.mapCreate + entries.reduce((a, b) => a + b, 0), size: entries.length };
    }
    case '&&':
    case '||': {
      const [l, r] = n.args as [unknown, unknown];
      return { cost: est(l).cost + est(r).cost, size: 1 };
    }
    case '?:': {
      const [c, t, f] = (n.args as unknown[]).map((x) => est(x));
      return { cost: c!.cost + Math.max(t!.cost, f!.cost), size: Math.max(t!.size, f!.size) };
    }
    case '!_':
    case '-_': {
      const a = est(n.args);
      return { cost: a.cost + unitCost.operation, size: a.size };
    }
    case 'call':
    case 'rcall':
      return estimateCall(n, scope);
    default: {
      // binary operators
      const [l, r] = (n.args as unknown[]).map((x) => est(x)) as [Estimate, Estimate];
      let cost = l.cost + r.cost + unitCost.operation;
      if (n.op === '==' || n.op === '!=') cost += traversal(Math.min(l.size, r.size));
      if (n.op === '+') return { cost: cost + traversal(l.size + r.size), size: l.size + r.size };
      if (n.op === 'in') cost += r.size;
      return { cost, size: 1 };
    }
  }
}

function estimateCall(n: { op: string; args: unknown }, scope: Scope): Estimate {
  const est = (x: unknown, s: Scope = scope): Estimate => estimate(x as ASTNode, s);
  let name: string;
  let receiverNode: unknown;
  let argNodes: unknown[];
  if (n.op === 'rcall') [name, receiverNode, argNodes] = n.args as [string, unknown, unknown[]];
  else [name, argNodes] = n.args as [string, unknown[]];
  if (n.op === 'rcall' && comprehensions.has(name) && argNodes.length >= 2) {
    const range = est(receiverNode);
    const iterVar = (argNodes[0] as { args: string }).args;
    const inner = new Map(scope);
    inner.set(iterVar, element(range.field));
    const body = argNodes.slice(1).reduce((a: number, x) => a + est(x, inner).cost, 0);
    // each iteration: the body, the loop condition and the step; map and filter build a list
    const accumulator = name === 'map' || name === 'filter' ? unitCost.listCreate : 0;
    return { cost: range.cost + accumulator + range.size * (body + 2), size: range.size };
  }
  if (name === 'has' && n.op === 'call') return { cost: est(argNodes[0]).cost, size: 1 };
  const receiver = receiverNode === undefined ? undefined : est(receiverNode);
  const args = argNodes.map((x) => est(x));
  let cost = (receiver?.cost ?? 0) + args.reduce((a, b) => a + b.cost, 0) + unitCost.operation;
  const subject = receiver ?? args[0];
  switch (name) {
    case 'matches':
    case 'find':
    case 'findAll': {
      const s = receiver ?? args[0];
      const re = receiver ? args[0] : args[1];
      cost += Math.ceil((1 + (s?.size ?? 0)) * unitCost.stringTraversalFactor) * Math.ceil((re?.size ?? 0) * unitCost.regexLengthFactor);
      break;
    }
    case 'contains':
    case 'startsWith':
    case 'endsWith':
    case 'lowerAscii':
    case 'upperAscii':
    case 'trim':
    case 'substring':
    case 'url':
    case 'quantity':
    case 'isQuantity':
    case 'ip':
    case 'isIP':
    case 'cidr':
    case 'isCIDR':
      cost += traversal(subject?.size ?? 0);
      break;
    case 'replace':
    case 'split':
    case 'join':
      cost += 2 * traversal(subject?.size ?? 0);
      break;
    case 'isSorted':
    case 'sum':
    case 'min':
    case 'max':
    case 'indexOf':
    case 'lastIndexOf':
      cost += subject?.size ?? 0;
      break;
    case 'check':
      cost += 350_000;
      break;
  }
  return { cost, size: subject?.size ?? 1 };
}

export interface CostEstimate {
  cost: number;
  /** upstream's message when the estimate passes the per-expression limit. */
  error?: string;
}

/** upstream's getCostErrorMessage: how far past the budget, in its wording. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const f = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${f} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/**
 * The worst-case cost of an expression checked by `checker` with `variables` bound to schemas,
 * and upstream's error when it exceeds `limit` (PerCallLimit by default).
 */
export function estimateCost(
  checker: TypedChecker,
  expression: string,
  variables: Readonly<Record<string, ObjectSchema | FieldSchema | undefined>>,
  limit = perCallLimit,
): CostEstimate | { issue: string } {
  const checked = checker.checkedAst(expression);
  if (checked.issue !== undefined) return { issue: checked.issue };
  const scope = new Map<string, FieldSchema | undefined>();
  for (const [name, s] of Object.entries(variables)) scope.set(name, s && 'fields' in s ? { type: 'object', ref: () => s } : (s as FieldSchema | undefined));
  const cost = estimate(checked.ast, scope).cost;
  return cost > limit ? { cost, error: costErrorMessage('estimated rule cost', cost, limit) } : { cost };
}
