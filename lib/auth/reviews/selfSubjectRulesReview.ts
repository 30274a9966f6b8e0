// SelfSubjectRulesReview: the rules the caller holds in a namespace, as the rule resolver sees them.
import { groups, SelfSubjectRulesReview, selfsubjectrulesreviews, SelfSubjectRulesReviewSchema } from '../../api';
import { errors } from '../../machinery/errors';
import type { CreateOnlyEndpoint } from '../../registry/createOnly';
import type { RuleResolver } from '../authorizer';

export function selfSubjectRulesReviewEndpoint(resolver: RuleResolver): CreateOnlyEndpoint {
  return {
    resource: selfsubjectrulesreviews,
    subresource: '',
    body: { schema: SelfSubjectRulesReviewSchema, group: groups.authorization, version: 'v1', kind: 'SelfSubjectRulesReview' },
    async create(ctx, _name, obj) {
      const review = obj as SelfSubjectRulesReview;
      const namespace = review.spec?.namespace ?? '';
      if (!namespace) throw errors.badRequest('no namespace on request');
      const rules = resolver.rulesFor(ctx.user, namespace);
      const status: NonNullable<SelfSubjectRulesReview['status']> = {
        resourceRules: rules.resourceRules,
        nonResourceRules: rules.nonResourceRules,
        incomplete: rules.incomplete,
      };
      if (rules.evaluationError) status.evaluationError = rules.evaluationError;
      return {
        kind: 'SelfSubjectRulesReview',
        apiVersion: `${groups.authorization}/v1`,
        // Upstream answers a fresh object: empty metadata and spec, only the status.
        metadata: {},
        spec: {},
        status,
      };
    },
  };
}
