// ValidatingAdmissionPolicy as a validating plugin (upstream policy/validating/dispatcher.go):
// for each policy whose matchConstraints select the request, each matching binding, each
// parameter: evaluate, then apply the binding's validationActions. The first Deny refuses the
// request with upstream's wording; Warn adds a Warning header; Audit an audit annotation.
import type { ApiObject, StatusReason, ValidatingAdmissionPolicyBinding } from '../../api';
import { groups, productDomain } from '../../api';
import { AuthorizerValue, CelActivation, CostBudget, objectField } from '../../cel';
import { celAuthorizer } from './authorizer';
import { errors } from '../../machinery/errors';
import type { ValidatingPlugin } from '../attributes';
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
  if (error.startsWith('compilation failed')) return 'compile_error';
  if (error.startsWith(outOfBudgetMessage)) return 'out_of_budget';
  return 'invalid_error';
}

/** Upstream's validation.policy.admission.k8s.io/validation_failure, product word substituted. */
export const validationFailureAnnotation = `validation.policy.admission.${productDomain}/validation_failure`;

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

interface Needs {
  /** Some policy or binding has a namespace selector that can refuse. */
  namespaceLabels: boolean;
  /** The variables some expression of these policies may read. */
  references: ReadonlySet<string>;
}

/** Per hooks list (PolicySet caches the lists and replaces them after a change). */
const needsByHooks = new WeakMap<readonly PolicyHook[], Needs>();

function needsOf(hooks: readonly PolicyHook[]): Needs {
  let needs = needsByHooks.get(hooks);
  if (!needs) {
    const references = new Set<string>();
    for (const h of hooks) for (const n of h.policy.references) references.add(n);
    const namespaceLabels = hooks.some(
      (h) => selectorRestricts(h.policy.policy.spec?.matchConstraints?.namespaceSelector) || h.bindings.some((b) => selectorRestricts(b.spec?.matchResources?.namespaceSelector)),
    );
    needsByHooks.set(hooks, (needs = { namespaceLabels, references }));
  }
  return needs;
}

interface Denial {
  policy: string;
  binding?: string;
  message: string;
  reason?: string;
}


export function validatingAdmissionPolicy(deps: PolicyPluginDeps): ValidatingPlugin {
  return async (a) => {
    if (a.resource.group === groups.admissionregistration && exempt.has(a.resource.resource)) return;
    const hooks = deps.policies.hooksFor(a.resource.group, a.resource.resource);
    if (hooks.length === 0) return;
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
    const uses = needs.references;
    const request = uses.has('request') ? requestOf(a) : undefined;
    const authorizer = deps.authorizer && uses.has('authorizer')
      ? new AuthorizerValue(celAuthorizer(deps.authorizer, a.user), { group: a.resource.group, resource: a.resource.resource, subresource: a.subresource, namespace: a.namespace, name: a.name })
      : undefined;
    const budget = new CostBudget();
    const kindSchema = deps.schemaOf?.(a.resource.group, a.version ?? '', a.resource.resource);
    const schemas = kindSchema && !a.subresource ? { object: objectField(kindSchema), oldObject: objectField(kindSchema) } : undefined;
    // Converted once for every policy; params and the namespace are added per binding.
    let base: CelActivation | undefined;
    const denials: Denial[] = [];
    const failures: { message: string; policy: string; binding: string; expressionIndex: number; validationActions: string[] }[] = [];

    const configError = (p: CompiledPolicy, binding: ValidatingAdmissionPolicyBinding | undefined, err: string): void => {
      if (p.failurePolicy === 'Ignore') return;
      denials.push({ policy: p.name, binding: binding?.metadata?.name, message: `failed to configure ${binding ? 'binding' : 'policy'}: ${err}` });
    };

    for (const { policy: p, bindings } of hooks) {
      if (!matchResourcesMatch(p.policy.spec?.matchConstraints, m, true)) continue;
      if (p.configurationError) {
        configError(p, undefined, p.configurationError);
        continue;
      }
      const annotations = new Map<string, string[]>();
      for (const b of bindings) {
        if (!matchResourcesMatch(b.spec?.matchResources, m, false)) continue;
        // No await without a paramKind: most policies have none, and each await is a turn of the loop.
        const params = p.policy.spec?.paramKind ? await collectParams(deps, p, b, a.namespace) : [null];
        if (typeof params === 'string') {
          configError(p, b, params);
          continue;
        }
        const namespace = !uses.has('namespaceObject') ? null : namespaceObject !== undefined ? namespaceObject : await loadNamespace();
        for (const param of params) {
          const started = performance.now();
          base ??= CelActivation.of(
            {
              object: uses.has('object') ? object : null,
              oldObject: uses.has('oldObject') ? oldObject : null,
              request,
              authorizer,
              namespaceObject: namespace,
              params: null,
            },
            { escape: false, schemas },
          );
          const activation = param === null ? base : base.with('params', param, { escape: false });
          const result = evaluatePolicy(p, activation, budget);
          const seconds = (performance.now() - started) / 1000;
          const bindingName = b.metadata?.name ?? '';
          const observe = (enforcementAction: PolicyCheck['enforcementAction'], error: string | undefined): void =>
            deps.observe?.({ policy: p.name, binding: bindingName, errorType: errorTypeOf(error), enforcementAction, seconds });
          for (const d of result.decisions) {
            if (d.action !== 'deny') {
              // Upstream counts an admit only when it comes from an ignored error.
              if (d.error !== undefined) observe('allow', d.error);
              continue;
            }
            const error = d.error ? d.message : undefined;
            const actions = b.spec?.validationActions ?? [];
            for (const action of actions) {
              if (action === 'Deny') {
                denials.push({ policy: p.name, binding: bindingName, message: d.message, reason: d.reason });
                observe('deny', error);
              } else if (action === 'Warn') {
                a.warn?.(`Validation failed for ValidatingAdmissionPolicy '${p.name}' with binding '${bindingName}': ${d.message}`);
                observe('warn', error);
              } else if (action === 'Audit') {
                failures.push({ message: d.message, policy: p.name, binding: bindingName, expressionIndex: d.index, validationActions: [...actions] });
                observe('audit', error);
              }
            }
          }
          for (const { key, value } of result.auditAnnotations) {
            const values = annotations.get(key) ?? [];
            if (!values.includes(value)) annotations.set(key, [...values, value]);
          }
        }
      }
      for (const [key, values] of annotations) a.addAuditAnnotation?.(`${p.name}/${key}`, values.join(', '));
    }
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
  };
}
