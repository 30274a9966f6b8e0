// The validating admission chain the stores call after their strategy's validation.
import {
  certificateApproval,
  certificateSigning,
  certificateSubjectRestriction,
  namespaceLifecycle,
  rbacEscalation,
  validatingChain,
  type ValidatingPlugin,
} from '../../lib/admission';
import type { Authorizer } from '../../lib/auth/authorizer';
import type { PolicyRuleResolver } from '../../lib/auth/rbac';
import type { ValidatingAdmission } from '../../lib/registry/store';
import type { GenericStore } from '../../lib/registry/store';
import { namespaceLookup } from '../../lib/registry/stores';

export interface AdmissionDeps {
  authorizer: Authorizer;
  /** The RBAC rule resolver for escalation checks; absent when RBAC is not an authorization mode. */
  ruleResolver?: Pick<PolicyRuleResolver, 'policyRulesFor' | 'roleReferenceRules'>;
}

/**
 * The stores need their admission callback before they exist, and the plugins need the stores
 * (namespace lookups) and the authorizer: this returns the callback plus a setter run once both exist.
 */
export function lateAdmission(): { admission: ValidatingAdmission; install(stores: readonly GenericStore[], deps: AdmissionDeps): void } {
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
      chain = validatingChain(plugins);
    },
  };
}
