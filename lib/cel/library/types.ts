// One library function: a cel-js signature, its handler and its runtime cost (charged before
// the handler runs, from its arguments).
export interface CelFunction {
  signature: string;
  handler: (...args: unknown[]) => unknown;
  cost: (...args: unknown[]) => number;
}
