// Runtime cost (spec §4.10.6). Unit costs follow cel-go's checker/interpreter and
// apiserver/pkg/cel/library/cost.go; limits follow apiserver/pkg/apis/cel/config.go.

/** Upstream's per-expression runtime limit (celconfig.PerCallLimit). */
export const perCallLimit = 1_000_000;
/** Upstream's per-request runtime budget for admission (celconfig.RuntimeCELCostBudget). */
export const runtimeCostBudget = 10_000_000;

export const unitCost = {
  /** Identifier and field selection (common.SelectAndIdentCost). */
  selectAndIdent: 1,
  /** Comparison, arithmetic and most calls. */
  operation: 1,
  /** A list literal (spec §4.10.6). */
  listCreate: 40,
  /** A map literal (common.MapCreateBaseCost). */
  mapCreate: 30,
  /** Per character walked by a string function (common.StringTraversalCostFactor). */
  stringTraversalFactor: 0.1,
  /** Per regex character (common.RegexStringLengthCostFactor). */
  regexLengthFactor: 0.25,
} as const;

/** upstream's message, so clients and tests recognise it. */
export const costLimitExceededMessage = 'operation cancelled: actual cost limit exceeded';

export class CostLimitExceeded extends Error {
  constructor() {
    super(costLimitExceededMessage);
    this.name = 'CostLimitExceeded';
  }
}

/** Counts one evaluation's cost and stops it the moment the limit is passed. */
export class CostTracker {
  cost = 0;
  constructor(readonly limit: number) {}
  add(n: number): void {
    this.cost += n;
    if (this.cost > this.limit) throw new CostLimitExceeded();
  }
}

/** A request's budget shared by all its evaluations (upstream's RuntimeCELCostBudget). */
export class CostBudget {
  constructor(public remaining: number = runtimeCostBudget) {}
}

/** Cost of walking a string or bytes value. */
export function traversalCost(v: unknown): number {
  const n = typeof v === 'string' ? v.length : v instanceof Uint8Array ? v.length : 0;
  return Math.ceil(n * unitCost.stringTraversalFactor);
}
