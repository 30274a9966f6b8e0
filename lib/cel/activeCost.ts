// The cost tracker of the evaluation running now. Evaluation is synchronous, so one module
// variable serves every instrumented node and wrapped function: they charge it before they
// do work that grows with their inputs, and a check or a library set-up (no tracker) runs free.
import type { CostTracker } from './cost';

let active: CostTracker | undefined;

/** Runs fn(arg) with tracker charged by every instrumented node it evaluates. */
export function withTracker<A, T>(tracker: CostTracker, fn: (arg: A) => T, arg: A): T {
  const prev = active;
  active = tracker;
  try {
    return fn(arg);
  } finally {
    active = prev;
  }
}

/** The running evaluation's tracker, if any. */
export function activeTracker(): CostTracker | undefined {
  return active;
}

/** Charges the running evaluation; throws CostLimitExceeded past its limit. */
export function charge(n: number): void {
  active?.add(n);
}
