// The authorization contract (upstream apiserver/pkg/authorization/authorizer) and the small
// built-in authorizers: union, privileged groups, always-allow, always-deny.
// Synchronous on purpose: it runs on every request and reads only memory.
import type { NonResourceRule, ResourceRule } from '../api/authorization';
import type { UserInfo } from './user';

/** What a request asks to do (upstream authorizer.Attributes). */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** URL path; what non-resource rules match. */
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
}

export type Decision = 'allow' | 'deny' | 'noOpinion';

export interface AuthorizationResult {
  decision: Decision;
  /** Why; '' when the authorizer has nothing to say. The HTTP layer appends it to its 403 text. */
  reason: string;
  /** Something went wrong while deciding; the decision may still stand (SubjectAccessReview status.evaluationError). */
  evaluationError?: string;
}

export interface Authorizer {
  authorize(a: AuthorizationAttributes): AuthorizationResult;
}

/** What a user may do in a namespace (upstream authorizer.RuleResolver, for SelfSubjectRulesReview). */
export interface RulesResult {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  /** True when some authorizer cannot enumerate its rules. */
  incomplete: boolean;
  evaluationError?: string;
}

export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): RulesResult;
}

/**
 * Upstream's utilerrors aggregate text: one message as itself, several de-duplicated and joined
 * with ", " inside brackets; undefined for none.
 */
export function aggregateErrorText(messages: readonly string[]): string | undefined {
  if (messages.length === 0) return undefined;
  if (messages.length === 1) return messages[0];
  const seen = [...new Set(messages)];
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`;
}

/**
 * Asks each authorizer in turn; the first allow or deny wins with its own reason and error.
 * If all have no opinion, their non-empty reasons are joined with newlines and their errors aggregated.
 */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  const list = [...authorizers];
  return {
    authorize(a) {
      let reasons: string[] | undefined;
      let errs: string[] | undefined;
      for (const z of list) {
        const r = z.authorize(a);
        if (r.decision !== 'noOpinion') return r;
        if (r.evaluationError !== undefined) (errs ??= []).push(r.evaluationError);
        if (r.reason) (reasons ??= []).push(r.reason);
      }
      const result: AuthorizationResult = { decision: 'noOpinion', reason: reasons ? reasons.join('\n') : '' };
      const err = errs && aggregateErrorText(errs);
      if (err !== undefined) result.evaluationError = err;
      return result;
    },
  };
}

/** Concatenates the rules of several resolvers; incomplete if any is, errors aggregated. */
export function unionRuleResolver(resolvers: readonly RuleResolver[]): RuleResolver {
  const list = [...resolvers];
  return {
    rulesFor(user, namespace) {
      const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
      const errs: string[] = [];
      for (const r of list) {
        const got = r.rulesFor(user, namespace);
        out.resourceRules.push(...got.resourceRules);
        out.nonResourceRules.push(...got.nonResourceRules);
        if (got.incomplete) out.incomplete = true;
        if (got.evaluationError !== undefined) errs.push(got.evaluationError);
      }
      const err = aggregateErrorText(errs);
      if (err !== undefined) out.evaluationError = err;
      return out;
    },
  };
}

/** Allows members of any of the groups everything, without a reason (upstream NewPrivilegedGroups). */
export function privilegedGroupsAuthorizer(privileged: readonly string[]): Authorizer {
  const set = new Set(privileged);
  return {
    authorize(a) {
      for (const g of a.user.groups) if (set.has(g)) return { decision: 'allow', reason: '' };
      return { decision: 'noOpinion', reason: '' };
    },
  };
}

/** Allows everything; its rules are `*` on everything (upstream authorizerfactory). */
export function alwaysAllowAuthorizer(): Authorizer & RuleResolver {
  return {
    authorize: () => ({ decision: 'allow', reason: '' }),
    rulesFor: () => ({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    }),
  };
}

/**
 * Upstream's AlwaysDeny: it answers no opinion (not deny) with a fixed reason, so a union can
 * still fall through to later authorizers; it grants no rules.
 */
export function alwaysDenyAuthorizer(): Authorizer & RuleResolver {
  return {
    authorize: () => ({ decision: 'noOpinion', reason: 'Everything is forbidden.' }),
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
  };
}
