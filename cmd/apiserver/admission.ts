// The validating admission chain that every write passes after its strategy's validation.
import {
  certificateApproval,
  certificateSigning,
  certificateSubjectRestriction,
  namespaceLifecycle,
  PolicySet,
  rbacEscalation,
  validatingAdmissionPolicy,
  validatingChain,
  type PolicyPluginDeps,
  type ValidatingPlugin,
} from '../../lib/admission';
import type { Authorizer } from '../../lib/auth/authorizer';
import type { PolicyRuleResolver } from '../../lib/auth/rbac';
import type { GenericStore, ValidatingAdmission } from '../../lib/registry/store';
import { namespaceLookup } from '../../lib/registry/stores';
import { followPolicies } from './admissionPolicies';
import { startPolicyStatusController } from './policyStatus';
import type { LiveStores } from '../../lib/apiserver/resourceRegistry';

export interface AdmissionDeps {
  authorizer: Authorizer;
  /** The RBAC rule resolver for escalation checks; absent when RBAC is not an authorization mode. */
  ruleResolver?: Pick<PolicyRuleResolver, 'policyRulesFor' | 'roleReferenceRules'>;
  /** Receives the admission policy metrics (upstream's check_total and check_duration_seconds). */
  observePolicyCheck?: PolicyPluginDeps['observe'];
  /** A policy status write that failed (retried by the controller). */
  onPolicyStatusError?(name: string, err: Error): void;
}

/**
 * The validating admission chain over the stores it guards (namespace lookups, policies and their
 * parameters) and the authorizer. Writes take it per call (the stores keep none), so it is built
 * once both exist; stop ends the policy followers and the policy status controller.
 */
export function startAdmission(resources: LiveStores, deps: AdmissionDeps): { admission: ValidatingAdmission; stop(): void } {
  const lifecycle = namespaceLifecycle(namespaceLookup(resources.stores));
  const plugins: ValidatingPlugin[] = [
    (a) => lifecycle({ operation: a.operation, namespaced: a.namespaced, resource: a.resource, obj: a.obj }),
    certificateApproval(deps.authorizer),
    certificateSigning(deps.authorizer),
    certificateSubjectRestriction(),
  ];
  if (deps.ruleResolver) plugins.push(rbacEscalation(deps.authorizer, deps.ruleResolver));
  // Policies run last, as upstream's ValidatingAdmissionPolicy plugin follows the built-in ones.
  const policies = new PolicySet();
  const follower = followPolicies(resources, policies);
  const policyPlugin = validatingAdmissionPolicy({ ...follower.deps, authorizer: deps.authorizer, observe: deps.observePolicyCheck });
  let synced = false;
  follower.synced.then(
    () => (synced = true),
    () => undefined, // each request awaits it and gets its error
  );
  plugins.push((a) => (synced ? policyPlugin(a) : follower.synced.then(() => policyPlugin(a))));
  const chain = validatingChain(plugins);
  const admission: ValidatingAdmission = async (ctx, operation, obj, old, store) => {
    await chain({
      operation,
      resource: store.groupResource,
      subresource: ctx.subresource,
      namespaced: store.resource.namespaced,
      namespace: obj.metadata?.namespace ?? ctx.namespace,
      name: obj.metadata?.name ?? '',
      obj,
      old,
      user: ctx.user,
      dryRun: ctx.dryRun,
      version: store.resource.version,
      kind: store.resource.kind,
      warn: ctx.warn,
      addAuditAnnotation: ctx.addAuditAnnotation,
    });
  };
  // kube-apiserver runs the policy status (type checking) controller; so do we. Its status
  // writes are admitted like any other (upstream's go through the loopback client).
  const statusController = startPolicyStatusController(resources, { admission }, deps.onPolicyStatusError ?? (() => undefined));
  return {
    admission,
    stop: () => {
      follower.stop();
      statusController.stop();
    },
  };
}
