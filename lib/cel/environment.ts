// The one CEL environment builder (spec §4.10): declared variables typed from our schemas,
// upstream's libraries, and programs that count their cost.
import { Environment } from '@marcbachmann/cel-js';
import type { ASTNode } from '@marcbachmann/cel-js';
import type { FieldSchema } from '../api/schema';
import { CostBudget, CostLimitExceeded, CostTracker, perCallLimit } from './cost';
import { instrument, withTracker } from './instrument';
import type { CostedEvaluator } from './instrument';
import { authorizerLibrary } from './library/authorizerValues';
import { formatLibrary } from './library/format';
import { cidrLibrary, ipLibrary } from './library/ip';
import { listFunctions } from './library/lists';
import { quantityLibrary } from './library/quantity';
import { regexFunctions } from './library/regex';
import type { CelFunction, CelLibrary } from './library/types';
import { urlLibrary } from './library/url';
import { toCelValue } from './values';

export interface CelVariable {
  name: string;
  /** The variable's schema: values are converted with it (BigInt integers, escaped names). */
  schema?: FieldSchema;
  /** Property names as they are (admission policies, as upstream's unstructured values); default: escaped (§4.10.2). */
  unescaped?: boolean;
  /**
   * The value is changed between evaluations (admission's `variables`), so its conversion is not
   * cached. Other values are converted once per object identity: a request's object is read by
   * every expression of every policy.
   */
  volatile?: boolean;
}

export type CompileResult = { program: CelProgram; error?: undefined } | { program?: undefined; error: string };

export type EvalResult =
  | { ok: true; value: unknown; cost: number }
  | { ok: false; message: string; cost: number; costExceeded: boolean };

export interface EvalOptions {
  /** The request's budget; each evaluation takes its cost from it. */
  budget?: CostBudget;
  /** Per-expression limit (upstream's PerCallLimit by default). */
  limit?: number;
  /** Schemas for this evaluation's values, over the declared ones (admission: the request's kind). */
  schemas?: Readonly<Record<string, FieldSchema | undefined>>;
}

/** Every library, as upstream's admission environment has them (docs/design.md lists them). */
export const celLibraries: readonly CelLibrary[] = [
  { functions: listFunctions },
  { functions: regexFunctions },
  quantityLibrary,
  urlLibrary,
  ipLibrary,
  cidrLibrary,
  formatLibrary,
  authorizerLibrary,
];

export class CelEnvironment {
  private readonly env: Environment;
  private readonly variables: ReadonlyMap<string, CelVariable>;

  constructor(variables: readonly CelVariable[]) {
    // Every object variable is dynamic: has() tests a field's presence (spec §4.10.4).
    this.env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
    for (const lib of celLibraries) {
      for (const t of lib.types ?? []) this.env.registerType(t.name, t.fields ? { ctor: t.ctor, fields: t.fields } : t.ctor);
    }
    for (const lib of celLibraries) {
      for (const f of lib.functions) this.env.registerFunction(f.signature, costed(f));
      for (const o of lib.operators ?? []) this.env.registerOperator(o.signature, o.handler);
      for (const c of lib.constants ?? []) this.env.registerConstant(c.name, c.type, c.value);
    }
    for (const v of variables) this.env.registerVariable(v.name, 'dyn');
    this.variables = new Map(variables.map((v) => [v.name, v]));
  }

  compile(expression: string): CompileResult {
    try {
      const parsed = this.env.parse(expression);
      const checked = parsed.check();
      if (!checked.valid) return { error: checked.error?.message ?? 'invalid expression' };
      instrument(parsed.ast);
      return { program: new CelProgram(parsed, this.variables) };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }
}

export class CelProgram {
  constructor(
    private readonly parsed: ((ctx?: Record<string, unknown>) => unknown) & { ast: ASTNode },
    private readonly variables: ReadonlyMap<string, CelVariable>,
  ) {}

  evaluate(activation: Readonly<Record<string, unknown>>, opts: EvalOptions = {}): EvalResult {
    const limit = Math.min(opts.limit ?? perCallLimit, opts.budget?.remaining ?? Infinity);
    const tracker = new CostTracker(limit);
    const ctx: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(activation)) {
      const decl = this.variables.get(name);
      const schema = opts.schemas?.[name] ?? decl?.schema;
      ctx[name] = decl?.volatile ? toCelValue(v, schema, !decl.unescaped) : convertCached(v, schema, !decl?.unescaped);
    }
    try {
      const value = withTracker(tracker, () => this.parsed(ctx));
      return { ok: true, value, cost: tracker.cost };
    } catch (e) {
      const exceeded = e instanceof CostLimitExceeded || (e as Error).cause instanceof CostLimitExceeded;
      return { ok: false, message: exceeded ? new CostLimitExceeded().message : (e as Error).message, cost: tracker.cost, costExceeded: exceeded };
    } finally {
      if (opts.budget) opts.budget.remaining -= tracker.cost;
    }
  }
}

/** Converted values per raw object, per schema and escaping (objects are not changed while referenced). */
const conversions = new WeakMap<object, Map<FieldSchema | undefined, [unknown?, unknown?]>>();

function convertCached(v: unknown, schema: FieldSchema | undefined, escape: boolean): unknown {
  if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return toCelValue(v, schema, escape);
  let bySchema = conversions.get(v);
  if (!bySchema) conversions.set(v, (bySchema = new Map()));
  let pair = bySchema.get(schema);
  if (!pair) bySchema.set(schema, (pair = []));
  const i = escape ? 0 : 1;
  if (!(i in pair)) pair[i] = toCelValue(v, schema, escape);
  return pair[i];
}

function costed(f: CelFunction): (...args: unknown[]) => unknown {
  return function (this: Partial<CostedEvaluator> | undefined, ...args: unknown[]): unknown {
    this?.celCost?.add(f.cost(...args));
    return f.handler(...args);
  };
}
