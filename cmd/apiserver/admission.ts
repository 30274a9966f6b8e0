// The validating admission chain the stores call after their strategy's validation.
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
import type { ValidatingAdmission } from '../../lib/registry/store';
import type { GenericStore } from '../../lib/registry/store';
import { namespaceLookup } from '../../lib/registry/stores';
import { followPolicies } from './admissionPolicies';
import { startPolicyStatusController } from './policyStatus';

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
 * The stores need their admission callback before they exist, and the plugins need the stores
 * (namespace lookups) and the authorizer: this returns the callback plus a setter run once both exist.
 */
export function lateAdmission(): {
  admission: ValidatingAdmission;
  /** Installs the plugins; the returned stop ends the policy followers. */
  install(stores: readonly GenericStore[], deps: AdmissionDeps): { stop(): void };
} {
  let chain: ValidatingPlugin | undefined;
  return {
    admission: async (ctx, operation, obj, old, store) => {
      if (!chain) return;
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
    },
    install(stores, deps) {
      const lifecycle = namespaceLifecycle(namespaceLookup(stores));
      const plugins: ValidatingPlugin[] = [
        (a) => lifecycle({ operation: a.operation, namespaced: a.namespaced, resource: a.resource, obj: a.obj }),
        certificateApproval(deps.authorizer),
        certificateSigning(deps.authorizer),
        certificateSubjectRestriction(),
      ];
      if (deps.ruleResolver) plugins.push(rbacEscalation(deps.authorizer, deps.ruleResolver));
      // Policies run last, as upstream's ValidatingAdmissionPolicy plugin follows the built-in ones.
      const policies = new PolicySet();
      const follower = followPolicies(stores, policies);
      const policyPlugin = validatingAdmissionPolicy({ ...follower.deps, authorizer: deps.authorizer, observe: deps.observePolicyCheck });
      let synced = false;
      follower.synced.then(
        () => (synced = true),
        () => undefined, // each request awaits it and gets its error
      );
      plugins.push((a) => (synced ? policyPlugin(a) : follower.synced.then(() => policyPlugin(a))));
      chain = validatingChain(plugins);
      // kube-apiserver runs the policy status (type checking) controller; so do we.
      const statusController = startPolicyStatusController(stores, deps.onPolicyStatusError ?? (() => undefined));
      return {
        stop: () => {
          follower.stop();
          statusController.stop();
        },
      };
    },
  };
}
