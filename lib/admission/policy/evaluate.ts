// Evaluating one compiled policy for one binding and parameter (upstream validating/validator.go):
// matchConditions (all true to go on), variables, validations with their failure messages and
// reasons, and audit annotation values. Errors follow the policy's failurePolicy.
import { type CelActivation, CostBudget, type EvalOptions } from '../../cel';
import type { CompiledExpression, CompiledPolicy, CompiledValidation } from './compiled';

/** `error`: the decision comes from an evaluation error (failurePolicy decided the action). */
export type Decision =
  | { action: 'admit'; error?: string }
  | { action: 'deny'; message: string; reason?: string; index: number; error?: boolean };

export interface PolicyResult {
  decisions: Decision[];
  auditAnnotations: readonly { key: string; value: string }[];
}

/** Shared by every passing validation and every result without annotations (read only). */
/** Stands for the variables record of a policy without variables (nothing is written to it). */
const noVariables: Record<string, unknown> = Object.freeze({});
const admitted: Decision = Object.freeze({ action: 'admit' });
const noAnnotations: readonly { key: string; value: string }[] = Object.freeze([]);

const maxMessageLength = 5 * 1024;

function fallbackMessage(v: CompiledValidation): string {
  const m = (v.message ?? '').trim();
  return m || `failed expression: ${v.expression.trim()}`;
}

function errorMessage(c: CompiledExpression, message: string): string {
  return `expression '${c.expression}' resulted in error: ${message}`;
}

/** Upstream's text when the request's budget runs out (plugin/cel/activation.go). */
export const outOfBudgetMessage = 'validation failed due to running out of cost budget, no further validation rules will be run';

function failureMessage(v: CompiledValidation, activation: CelActivation, opts: EvalOptions): string {
  if (!v.messageExpression) return fallbackMessage(v);
  const r = v.messageExpression.program.evaluate(activation, opts);
  if (!r.ok || typeof r.value !== 'string') return fallbackMessage(v);
  const m = r.value.trim();
  if (!m || m.length > maxMessageLength || m.includes('\n')) return fallbackMessage(v);
  return m;
}

/** Go's utilerrors.NewAggregate(...).Error(): one message as is, several as "[a, b]". */
function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
}

function errorDecision(p: CompiledPolicy, message: string, index: number): Decision {
  return p.failurePolicy === 'Ignore' ? { action: 'admit', error: message } : { action: 'deny', message, index, error: true };
}

/** Evaluates the policy; `base` holds object, oldObject, request, params, namespaceObject, authorizer. */
export function evaluatePolicy(p: CompiledPolicy, base: CelActivation, budget: CostBudget | EvalOptions): PolicyResult {
  // One options object per request when the caller passes it (not per policy).
  const opts: EvalOptions = budget instanceof CostBudget ? { budget } : budget;
  const variables: Record<string, unknown> = p.variables.length || p.references.has('variables') ? {} : noVariables;
  // Variables hold CEL values already; later ones see the earlier ones through this record
  // (added only when some expression reads it: the copy is per policy and request).
  const activation = p.references.has('variables') ? base.with('variables', variables, { celValue: true }) : base;
  defineLazyVariables(p, variables, activation, opts);
  // Any false condition skips the policy; errors without a false one follow the failurePolicy.
  let conditionErrors: string[] | undefined;
  for (const c of p.matchConditions) {
    const r = c.program.evaluate(activation, opts);
    if (!r.ok) (conditionErrors ??= []).push(r.costExceeded ? outOfBudgetMessage : errorMessage(c, r.message));
    else if (r.value === false) return { decisions: [], auditAnnotations: noAnnotations };
  }
  if (conditionErrors) {
    return { decisions: [errorDecision(p, aggregate(conditionErrors), -1)], auditAnnotations: noAnnotations };
  }
  // Sized up front: growing an empty array by push allocates room for 16.
  const decisions = new Array<Decision>(p.validations.length);
  for (let index = 0; index < p.validations.length; index++) {
    const v = p.validations[index]!;
    const r = v.program.evaluate(activation, opts);
    if (!r.ok) decisions[index] = errorDecision(p, r.costExceeded ? outOfBudgetMessage : errorMessage(v, r.message), index);
    else if (typeof r.value !== 'boolean') decisions[index] = errorDecision(p, errorMessage(v, `expected a boolean, got ${typeof r.value}`), index);
    else if (r.value) decisions[index] = admitted;
    else decisions[index] = { action: 'deny', message: failureMessage(v, activation, opts), reason: v.reason ?? 'Invalid', index };
  }
  if (p.auditAnnotations.length === 0) return { decisions, auditAnnotations: noAnnotations };
  const auditAnnotations: { key: string; value: string }[] = [];
  for (const a of p.auditAnnotations) {
    const r = a.program.evaluate(activation, opts);
    if (!r.ok) {
      decisions.push(errorDecision(p, errorMessage(a, r.message), -1));
      continue;
    }
    if (r.value === null || r.value === undefined) continue;
    if (typeof r.value === 'string') auditAnnotations.push({ key: a.key, value: r.value.slice(0, 10 * 1024) });
    else decisions.push(errorDecision(p, errorMessage(a, `valueExpression must evaluate to a string or null, got ${typeof r.value}`), -1));
  }
  return { decisions, auditAnnotations };
}

/**
 * Upstream's composited variables (plugin/cel/composition.go): each is evaluated the first time an
 * expression reads it (one that is never read costs nothing), with its own per-call limit, its
 * cost taken from the request's budget, and its value or error kept for later reads. An error
 * reaches the reading expression as upstream words it, so a chain of variables that each double
 * the last runs out of cost at the first one past the limit and every later one says so.
 */
function defineLazyVariables(p: CompiledPolicy, variables: Record<string, unknown>, activation: CelActivation, opts: EvalOptions): void {
  for (const v of p.variables) {
    let done: { value: unknown } | { error: string } | undefined;
    Object.defineProperty(variables, v.name, {
      enumerable: true,
      get(): unknown {
        if (!done) {
          const r = v.program.evaluate(activation, opts);
          done = r.ok ? { value: r.value } : { error: `composited variable "${v.name}" fails to evaluate: ${r.message}` };
        }
        if ('error' in done) throw new Error(done.error);
        return done.value;
      },
    });
  }
}
