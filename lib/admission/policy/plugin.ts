// ValidatingAdmissionPolicy as a validating plugin (upstream policy/validating/dispatcher.go):
// for each policy whose matchConstraints select the request, each matching binding, each
// parameter: evaluate, then apply the binding's validationActions. The first Deny refuses the
// request with upstream's wording; Warn adds a Warning header; Audit an audit annotation.
import type { ApiObject, StatusReason, ValidatingAdmissionPolicyBinding } from '../../api';
import { annotations, groups } from '../../api';
import { AuthorizerValue, CelActivation, CostBudget, type EvalOptions, type FieldTree, mergeFieldTrees, objectField } from '../../cel';
import { celAuthorizer } from './authorizer';
import { errors } from '../../machinery/errors';
import type { AdmissionAttributes, ValidatingPlugin } from '../attributes';
import type { CompiledPolicy } from './compiled';
import { evaluatePolicy, outOfBudgetMessage } from './evaluate';
import type { PolicyCheck, PolicyPluginDeps } from './deps';
import { collectParams } from './params';
import { requestOf } from './request';
import { matchResourcesMatch, ruleKeyOf, selectorRestricts, type MatchRequest } from './matching';
import type { PolicyHook } from './policySet';

/** Upstream's metrics.ErrorType of a decision. */
function errorTypeOf(error: string | undefined): PolicyCheck['errorType'] {
  if (error === undefined) return 'no_error';
  if (error.startsWith('compilation failed') || error.startsWith('program instantiation failed')) return 'compile_error';
  if (error.startsWith(outOfBudgetMessage)) return 'out_of_budget';
  return 'invalid_error';
}

/** Upstream's validation.policy.admission.k8s.io/validation_failure, product word substituted. */
export const validationFailureAnnotation = annotations.policyValidationFailure;

/** Requests on the policy kinds themselves are never subject to policies (no lock-out). */
const exempt = new Set(['validatingadmissionpolicies', 'validatingadmissionpolicybindings']);

function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403;
    case 'Unauthorized':
      return 401;
    case 'RequestEntityTooLarge':
      return 413;
    default:
      return 422;
  }
}

/** The parameters of a binding whose policy has no paramKind (shared: never changed). */
const noParams: readonly (ApiObject | null)[] = [null];

interface Needs {
  /** Some policy or binding has a namespace selector that can refuse. */
  namespaceLabels: boolean;
  /** The variables some expression of these policies may read, with the fields it selects. */
  paths: ReadonlyMap<string, FieldTree>;
}

/** Per hooks list (PolicySet caches the lists and replaces them after a change). */
const needsByHooks = new WeakMap<readonly PolicyHook[], Needs>();

function needsOf(hooks: readonly PolicyHook[]): Needs {
  let needs = needsByHooks.get(hooks);
  if (!needs) {
    const paths = new Map<string, FieldTree>();
    for (const h of hooks) {
      for (const [n, t] of h.policy.paths) {
        const prev = paths.get(n);
        paths.set(n, prev ? mergeFieldTrees(prev, t) : t);
      }
    }
    const namespaceLabels = hooks.some(
      (h) => selectorRestricts(h.policy.policy.spec?.matchConstraints?.namespaceSelector) || h.bindings.some((b) => selectorRestricts(b.spec?.matchResources?.namespaceSelector)),
    );
    needsByHooks.set(hooks, (needs = { namespaceLabels, paths }));
  }
  return needs;
}

/** One check for the metrics (a plain function: a closure per evaluation would be garbage). */
function observe(deps: PolicyPluginDeps, p: CompiledPolicy, binding: string, seconds: number, enforcementAction: PolicyCheck['enforcementAction'], error: string | undefined): void {
  deps.observe?.({ policy: p.name, binding, errorType: errorTypeOf(error), enforcementAction, seconds });
}

interface Denial {
  policy: string;
  binding?: string;
  message: string;
  reason?: string;
}

/** What the request's evaluations found: denials in order, and Audit failures. */
interface Outcome {
  denials: Denial[];
  failures: { message: string; policy: string; binding: string; expressionIndex: number; validationActions: string[] }[];
}

function configError(out: Outcome, p: CompiledPolicy, binding: ValidatingAdmissionPolicyBinding | undefined, err: string): void {
  if (p.failurePolicy === 'Ignore') return;
  out.denials.push({ policy: p.name, binding: binding?.metadata?.name, message: `failed to configure ${binding ? 'binding' : 'policy'}: ${err}` });
}

/**
 * Evaluates one binding of a policy for each of its params and applies its validationActions;
 * returns the policy's audit annotations so far (created on the first one).
 */
function evaluateBinding(
  deps: PolicyPluginDeps,
  a: AdmissionAttributes,
  p: CompiledPolicy,
  b: ValidatingAdmissionPolicyBinding,
  params: readonly (ApiObject | null)[],
  base: CelActivation,
  opts: EvalOptions,
  out: Outcome,
  annotations: Map<string, string[]> | undefined,
): Map<string, string[]> | undefined {
  const bindingName = b.metadata?.name ?? '';
  for (let i = 0; i < params.length; i++) {
    const param = params[i]!;
    const started = performance.now();
    const activation = param === null ? base : base.with('params', param, { escape: false });
    const result = evaluatePolicy(p, activation, opts);
    const seconds = (performance.now() - started) / 1000;
    for (const d of result.decisions) {
      // Upstream counts an admit only when it comes from an ignored error.
      if (d.action !== 'deny') {
        if (d.error !== undefined) observe(deps, p, bindingName, seconds, 'allow', d.error);
        continue;
      }
      const error = d.error ? d.message : undefined;
      const actions = b.spec?.validationActions ?? [];
      for (const action of actions) {
        if (action === 'Deny') {
          out.denials.push({ policy: p.name, binding: bindingName, message: d.message, reason: d.reason });
          observe(deps, p, bindingName, seconds, 'deny', error);
        } else if (action === 'Warn') {
          a.warn?.(`Validation failed for ValidatingAdmissionPolicy '${p.name}' with binding '${bindingName}': ${d.message}`);
          observe(deps, p, bindingName, seconds, 'warn', error);
        } else if (action === 'Audit') {
          out.failures.push({ message: d.message, policy: p.name, binding: bindingName, expressionIndex: d.index, validationActions: [...actions] });
          observe(deps, p, bindingName, seconds, 'audit', error);
        }
      }
    }
    for (const { key, value } of result.auditAnnotations) {
      annotations ??= new Map();
      const values = annotations.get(key) ?? [];
      if (!values.includes(value)) annotations.set(key, [...values, value]);
    }
  }
  return annotations;
}


export function validatingAdmissionPolicy(deps: PolicyPluginDeps): ValidatingPlugin {
  // Nothing to evaluate is answered at once, without a promise (validatingChain awaits none).
  return (a) => {
    if (a.resource.group === groups.admissionregistration && exempt.has(a.resource.resource)) return;
    const hooks = deps.policies.hooksFor(a.resource.group, a.resource.resource);
    if (hooks.length === 0) return;
    return admit(deps, a, hooks);
  };
}

async function admit(deps: PolicyPluginDeps, a: AdmissionAttributes, hooks: readonly PolicyHook[]): Promise<void> {
  const object = a.operation === 'DELETE' ? null : a.obj;
  const oldObject = a.operation === 'CREATE' ? null : a.old;
  const isNamespace = a.resource.group === '' && a.resource.resource === 'namespaces';
  const nsName = isNamespace ? '' : a.namespaced ? a.namespace : '';
  const needs = needsOf(hooks);
  let namespaceObject: ApiObject | null | undefined;
  const loadNamespace = async (): Promise<ApiObject | null> => (namespaceObject ??= nsName ? await deps.namespace(nsName) : null);
  const m: MatchRequest = {
    operation: a.operation,
    group: a.resource.group,
    version: a.version ?? '',
    versions: deps.versionsOf(a.resource.group, a.resource.resource),
    resource: a.resource.resource,
    subresource: a.subresource,
    name: a.name,
    namespaced: a.namespaced,
    isNamespace,
    objectLabels: object ? (object.metadata?.labels ?? {}) : undefined,
    oldObjectLabels: oldObject ? (oldObject.metadata?.labels ?? {}) : undefined,
  };
  m.ruleKey = ruleKeyOf(m);
  // Only a selector that can refuse looks at the namespace's labels (an empty one selects all).
  if (nsName && needs.namespaceLabels) m.namespaceLabels = (await loadNamespace())?.metadata?.labels ?? {};
  // Values no expression of these policies reads are neither built nor converted.
  const uses = needs.paths;
  const request = uses.has('request') ? requestOf(a) : undefined;
  const authorizer = deps.authorizer && uses.has('authorizer')
    ? new AuthorizerValue(celAuthorizer(deps.authorizer, a.user), { group: a.resource.group, resource: a.resource.resource, subresource: a.subresource, namespace: a.namespace, name: a.name })
    : undefined;
  const opts: EvalOptions = { budget: new CostBudget() };
  const kindSchema = deps.schemaOf?.(a.resource.group, a.version ?? '', a.resource.resource);
  const schemas = kindSchema && !a.subresource ? { object: objectField(kindSchema), oldObject: objectField(kindSchema) } : undefined;
  // Converted once for every policy; params and the namespace are added per binding.
  let base: CelActivation | undefined;
  const out: Outcome = { denials: [], failures: [] };

  // Index loops, and the evaluation in a plain function: iterators and locals that live
  // across an await in an async function are heap objects, allocated per request.
  for (let h = 0; h < hooks.length; h++) {
    const { policy: p, bindings } = hooks[h]!;
    if (!matchResourcesMatch(p.policy.spec?.matchConstraints, m, true)) continue;
    if (p.configurationError) {
      configError(out, p, undefined, p.configurationError);
      continue;
    }
    let annotations: Map<string, string[]> | undefined;
    for (let i = 0; i < bindings.length; i++) {
      const b = bindings[i]!;
      if (!matchResourcesMatch(b.spec?.matchResources, m, false)) continue;
      // No await without a paramKind: most policies have none, and each await is a turn of the loop.
      const params = p.policy.spec?.paramKind ? await collectParams(deps, p, b, a.namespace) : noParams;
      if (typeof params === 'string') {
        configError(out, p, b, params);
        continue;
      }
      if (!base) {
        const namespace = !uses.has('namespaceObject') ? null : namespaceObject !== undefined ? namespaceObject : await loadNamespace();
        // Only what the expressions select is converted (a large object's other fields are not walked).
        base = CelActivation.of({ object, oldObject, request, authorizer, namespaceObject: namespace, params: null }, { escape: false, schemas, paths: uses });
      }
      annotations = evaluateBinding(deps, a, p, b, params, base, opts, out, annotations);
    }
    if (annotations) for (const [key, values] of annotations) a.addAuditAnnotation?.(`${p.name}/${key}`, values.join(', '));
  }
  const { denials, failures } = out;
  if (failures.length) a.addAuditAnnotation?.(validationFailureAnnotation, JSON.stringify(failures));
  const first = denials[0];
  if (!first) return;
  const message = first.binding !== undefined
    ? `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.message}`
    : `ValidatingAdmissionPolicy '${first.policy}' denied request: ${first.message}`;
  const err = errors.forbidden(a.resource, a.name, message, [{ message }]);
  const reason = first.reason || 'Invalid';
  err.status.reason = reason as StatusReason;
  err.status.code = reasonToCode(reason);
  throw err;
}
