// The one CEL environment builder (spec §4.10): declared variables typed from our schemas,
// upstream's libraries, and programs that count their cost.
import { Environment } from '@marcbachmann/cel-js';
import type { ASTNode } from '@marcbachmann/cel-js';
import type { FieldSchema } from '../api/schema';
import { CostBudget, CostLimitExceeded, CostTracker, perCallLimit } from './cost';
import { type FieldTree, referencedPaths } from './references';
import { withTracker } from './activeCost';
import { formatCheckIssue } from './checkIssues';
import { instrument } from './instrument';
import type { CostedEvaluator } from './instrument';
import { RegexLiteralError } from './regexCalls';
import { authorizerLibrary } from './library/authorizerValues';
import { formatLibrary } from './library/format';
import { cidrLibrary, ipLibrary } from './library/ip';
import { listFunctions } from './library/lists';
import { numericEqualityLibrary } from './library/numericEquality';
import { quantityLibrary } from './library/quantity';
import { regexFunctions } from './library/regex';
import { setsLibrary } from './library/sets';
import { stringsExtLibrary } from './library/stringsExt';
import type { CelFunction, CelLibrary } from './library/types';
import { typeNamesLibrary, typeValueSources } from './library/typeNames';
import { urlLibrary } from './library/url';
import { projectCelValue, toCelValue } from './values';

export interface CelVariable {
  name: string;
  /** The variable's schema: values are converted with it (BigInt integers, escaped names). */
  schema?: FieldSchema;
  /** Property names as they are (admission policies, as upstream's unstructured values); default: escaped (§4.10.2). */
  unescaped?: boolean;
}

/** `error` is upstream's detail: "compilation failed: …" or "program instantiation failed: …". */
export type CompileResult = { program: CelProgram; error?: undefined } | { program?: undefined; error: string };

const compilationFailed = (issue: string): string => `compilation failed: ${issue}`;

export type EvalResult =
  | { ok: true; value: unknown; cost: number }
  | { ok: false; message: string; cost: number; costExceeded: boolean };

export interface EvalOptions {
  /** The request's budget; each evaluation takes its cost from it. */
  budget?: CostBudget;
  /** Per-expression limit (upstream's PerCallLimit by default). */
  limit?: number;
}

/** Every library, as upstream's admission environment has them (docs/decisions.md lists them). */
export const celLibraries: readonly CelLibrary[] = [
  { functions: listFunctions },
  { functions: regexFunctions },
  numericEqualityLibrary,
  stringsExtLibrary,
  setsLibrary,
  quantityLibrary,
  urlLibrary,
  ipLibrary,
  cidrLibrary,
  formatLibrary,
  authorizerLibrary,
  typeNamesLibrary,
];

export const celEnvironmentOptions = { enableOptionalTypes: true, homogeneousAggregateLiterals: false } as const;

let libraryBase: Environment | undefined;

/** A fresh cel-js environment with every library registered (a clone of one built once). */
export function libraryEnvironment(): Environment {
  if (!libraryBase) {
    const env = new Environment(celEnvironmentOptions);
    for (const lib of celLibraries) {
      for (const t of lib.types ?? []) env.registerType(t.name, t.fields ? { ctor: t.ctor, fields: t.fields } : t.ctor);
    }
    for (const lib of celLibraries) {
      for (const f of lib.functions) env.registerFunction(f.signature, costed(f));
      for (const o of lib.operators ?? []) env.registerOperator(o.signature, o.handler);
      for (const c of lib.constants ?? []) env.registerConstant(c.name, c.type, c.value);
    }
    for (const [holder, field, expression] of typeValueSources) (holder as Record<string, unknown>)[field] = env.evaluate(expression);
    libraryBase = env;
  }
  return libraryBase.clone(celEnvironmentOptions);
}

export class CelEnvironment {
  private readonly env: Environment;
  private readonly variables: ReadonlyMap<string, CelVariable>;

  constructor(variables: readonly CelVariable[]) {
    // Every object variable is dynamic: has() tests a field's presence (spec §4.10.4).
    this.env = libraryEnvironment();
    for (const v of variables) this.env.registerVariable(v.name, 'dyn');
    this.variables = new Map(variables.map((v) => [v.name, v]));
  }

  compile(expression: string): CompileResult {
    try {
      const parsed = this.env.parse(expression);
      const checked = parsed.check();
      if (!checked.valid) return { error: compilationFailed(checked.error?.message ?? 'invalid expression') };
      instrument(parsed.ast);
      return { program: new CelProgram(parsed, this.variables) };
    } catch (e) {
      // A literal pattern RE2 refuses: cel-go's regex validator reports `matches` among the check
      // issues; find/findAll fail when upstream builds the program.
      if (e instanceof RegexLiteralError) {
        return { error: e.stage === 'check' ? compilationFailed(formatCheckIssue(expression, e.message, e.offset)) : `program instantiation failed: ${e.message}` };
      }
      return { error: compilationFailed((e as Error).message) };
    }
  }
}

/**
 * Values converted once for many evaluations (an admission request's object is read by every
 * expression of every policy). `with` adds one more: JSON to convert, or a CEL value as it is.
 */
export class CelActivation {
  private constructor(readonly values: Readonly<Record<string, unknown>>) {}

  /**
   * `escape` false: property names as they are (admission's unstructured objects). `paths`
   * (unescaped values only): what the expressions to be evaluated read (CelProgram.paths merged);
   * a variable absent from it is left out, one read through fields gets only those fields
   * converted — the full conversion of a large object is most of an evaluation's cost.
   */
  static of(
    raw: Readonly<Record<string, unknown>>,
    opts: { escape?: boolean; schemas?: Readonly<Record<string, FieldSchema | undefined>>; paths?: ReadonlyMap<string, FieldTree> } = {},
  ): CelActivation {
    const values: Record<string, unknown> = {};
    const escape = opts.escape ?? true;
    const paths = escape ? undefined : opts.paths;
    for (const name in raw) {
      const v = raw[name];
      if (!paths) values[name] = toCelValue(v, opts.schemas?.[name], escape);
      else {
        const tree = paths.get(name);
        values[name] = tree ? projectCelValue(v, opts.schemas?.[name], tree) : undefined;
      }
    }
    return new CelActivation(values);
  }

  with(name: string, value: unknown, opts: { escape?: boolean; schema?: FieldSchema; celValue?: boolean } = {}): CelActivation {
    // A flat copy, not Object.create(this.values): a fresh object per request used as a
    // prototype costs V8 a prototype map each time and makes cel-js's variable reads megamorphic.
    const values: Record<string, unknown> = {};
    for (const k in this.values) values[k] = this.values[k];
    values[name] = opts.celValue ? value : toCelValue(value, opts.schema, opts.escape ?? true);
    return new CelActivation(values);
  }
}

export class CelProgram {
  private names?: ReadonlySet<string>;
  private fieldPaths?: ReadonlyMap<string, FieldTree>;

  constructor(
    private readonly parsed: ((ctx?: Record<string, unknown>) => unknown) & { ast: ASTNode },
    private readonly variables: ReadonlyMap<string, CelVariable>,
  ) {}

  /** The variables the expression may read (a superset: comprehension variables are in it too). */
  get references(): ReadonlySet<string> {
    return (this.names ??= new Set(this.paths.keys()));
  }

  /** Per variable, the fields the expression selects from it (see referencedPaths). */
  get paths(): ReadonlyMap<string, FieldTree> {
    return (this.fieldPaths ??= referencedPaths(this.parsed.ast));
  }

  /** Evaluates with JSON values (converted by the declared variables) or an already converted CelActivation. */
  evaluate(activation: Readonly<Record<string, unknown>> | CelActivation, opts: EvalOptions = {}): EvalResult {
    const limit = Math.min(opts.limit ?? perCallLimit, opts.budget?.remaining ?? Infinity);
    const tracker = new CostTracker(limit);
    let ctx: Readonly<Record<string, unknown>>;
    if (activation instanceof CelActivation) ctx = activation.values;
    else {
      const converted: Record<string, unknown> = {};
      for (const [name, v] of Object.entries(activation)) {
        const decl = this.variables.get(name);
        converted[name] = toCelValue(v, decl?.schema, !decl?.unescaped);
      }
      ctx = converted;
    }
    try {
      const value = withTracker(tracker, this.parsed, ctx);
      return { ok: true, value, cost: tracker.cost };
    } catch (e) {
      const exceeded = e instanceof CostLimitExceeded || (e as Error).cause instanceof CostLimitExceeded;
      return { ok: false, message: exceeded ? new CostLimitExceeded().message : (e as Error).message, cost: tracker.cost, costExceeded: exceeded };
    } finally {
      if (opts.budget) opts.budget.remaining -= tracker.cost;
    }
  }
}

function costed(f: CelFunction): (...args: unknown[]) => unknown {
  return function (this: Partial<CostedEvaluator> | undefined, ...args: unknown[]): unknown {
    this?.celCost?.add(f.cost(...args));
    return f.handler(...args);
  };
}
