// One library function: a cel-js signature, its handler and its runtime cost (charged before
// the handler runs, from its arguments).
export interface CelFunction {
  signature: string;
  handler: (...args: unknown[]) => unknown;
  cost: (...args: unknown[]) => number;
}

/** A library value type registered with cel-js under upstream's type name. */
export interface CelType {
  name: string;
  ctor: new (...args: never[]) => unknown;
  fields?: Record<string, string>;
}

/** An equality overload for a library type (upstream's ref.Val Equal). */
export interface CelOperator {
  signature: string;
  handler: (a: unknown, b: unknown) => boolean;
}

/** A constant, for upstream's dotted function names (ip.isCanonical, format.named). */
export interface CelConstant {
  name: string;
  type: string;
  value: unknown;
}

export interface CelLibrary {
  types?: readonly CelType[];
  functions: readonly CelFunction[];
  operators?: readonly CelOperator[];
  constants?: readonly CelConstant[];
}
