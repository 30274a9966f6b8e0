// A policy compiled once (per resourceVersion) into CEL programs: matchConditions, variables,
// validations (+ messageExpressions) and auditAnnotations. Write-time validation already refused
// expressions that do not compile; a stored one that still fails (e.g. written by an older
// server) becomes the policy's configuration error, handled by its failurePolicy.
import type { ValidatingAdmissionPolicy } from '../../api';
import { type CelProgram, type FieldTree, mergeFieldTrees, policyEnvironment } from '../../cel';

export interface CompiledExpression {
  expression: string;
  program: CelProgram;
}

export interface CompiledValidation extends CompiledExpression {
  message?: string;
  messageExpression?: CompiledExpression;
  reason?: string;
}

export interface CompiledPolicy {
  policy: ValidatingAdmissionPolicy;
  name: string;
  failurePolicy: 'Fail' | 'Ignore';
  matchConditions: (CompiledExpression & { name: string })[];
  variables: (CompiledExpression & { name: string })[];
  validations: CompiledValidation[];
  auditAnnotations: (CompiledExpression & { key: string })[];
  /** Set when an expression does not compile. */
  configurationError?: string;
  /** Every variable any of its expressions may read (see CelProgram.references). */
  references: ReadonlySet<string>;
  /** Per variable, the fields its expressions select (CelProgram.paths merged). */
  paths: ReadonlyMap<string, FieldTree>;
}

export function compilePolicy(policy: ValidatingAdmissionPolicy): CompiledPolicy {
  const spec = policy.spec ?? {};
  const env = policyEnvironment(spec.paramKind !== undefined);
  const errors: string[] = [];
  const paths = new Map<string, FieldTree>();
  const compile = (expression: string): CompiledExpression | undefined => {
    const r = env.compile(expression);
    if (r.error !== undefined) {
      errors.push(r.error);
      return undefined;
    }
    for (const [n, t] of r.program.paths) {
      const prev = paths.get(n);
      paths.set(n, prev ? mergeFieldTrees(prev, t) : t);
    }
    return { expression, program: r.program };
  };
  const named = <T extends { name?: string; expression?: string }>(xs: readonly T[] | undefined): (CompiledExpression & { name: string })[] =>
    (xs ?? []).flatMap((x) => {
      const c = compile(x.expression ?? '');
      return c ? [{ ...c, name: x.name ?? '' }] : [];
    });
  const compiled: CompiledPolicy = {
    policy,
    name: policy.metadata?.name ?? '',
    failurePolicy: spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    matchConditions: named(spec.matchConditions),
    variables: named(spec.variables),
    validations: (spec.validations ?? []).flatMap((v) => {
      const c = compile(v.expression ?? '');
      if (!c) return [];
      const me = v.messageExpression?.trim() ? compile(v.messageExpression) : undefined;
      return [{ ...c, message: v.message, reason: v.reason, messageExpression: me }];
    }),
    auditAnnotations: (spec.auditAnnotations ?? []).flatMap((a) => {
      const c = compile((a.valueExpression ?? '').trim());
      return c ? [{ ...c, key: a.key ?? '' }] : [];
    }),
    references: new Set(paths.keys()),
    paths,
  };
  if (errors.length) compiled.configurationError = errors.join('; ');
  return compiled;
}
