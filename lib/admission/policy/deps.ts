// What the policy plugin needs from the server: the policy set, lookups of namespaces and
// params (from the watch caches), served versions, and a sink for its metrics.
import type { ApiObject, LabelSelector } from '../../api';
import type { ObjectSchema } from '../../api/schema';
import type { Authorizer } from '../../auth/authorizer';
import type { PolicySet } from './policySet';

export interface ParamKind {
  apiVersion: string;
  kind: string;
}

export interface PolicyPluginDeps {
  policies: PolicySet;
  /** The namespace object (shared and read-only), null when it does not exist; a cache hit may come without a promise. */
  namespace(name: string): ApiObject | null | Promise<ApiObject | null>;
  /** Whether the param kind is namespaced; undefined when the kind is not served. */
  paramScope(kind: ParamKind): { namespaced: boolean } | undefined;
  /** One parameter object, null when absent. */
  param(kind: ParamKind, namespace: string, name: string): Promise<ApiObject | null>;
  /** The parameter objects whose labels the selector matches, in name order. */
  paramsBySelector(kind: ParamKind, namespace: string, selector: LabelSelector): Promise<ApiObject[]>;
  /** Every version a group/resource is served in. */
  versionsOf(group: string, resource: string): readonly string[];
  /** The schema of a served group/version/resource: set/map lists in `object` follow its list types. */
  schemaOf?(group: string, version: string, resource: string): ObjectSchema | undefined;
  /** Backs the `authorizer` variable; without it, expressions using it fail (per failurePolicy). */
  authorizer?: Authorizer;
  /** Upstream's apiserver_validating_admission_policy_check_total / _check_duration_seconds. */
  observe?(check: PolicyCheck): void;
}

export interface PolicyCheck {
  policy: string;
  binding: string;
  errorType: 'no_error' | 'compile_error' | 'invalid_error' | 'out_of_budget';
  enforcementAction: 'allow' | 'deny' | 'warn' | 'audit';
  seconds: number;
}
