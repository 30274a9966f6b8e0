// SelfSubjectReview: answers "who am I" with the request's own authenticated identity.
import { apiVersionOf, selfsubjectreviews, SelfSubjectReview, SelfSubjectReviewSchema, type ResourceInfo } from '../../api';
import type { CreateOnlyEndpoint } from '../../registry/createOnly';
import { toAuthenticationUserInfo } from './userInfo';

/** `resource`: the v1 resource, or the v1beta1 one of the same schema. */
export function selfSubjectReviewEndpoint(resource: ResourceInfo = selfsubjectreviews): CreateOnlyEndpoint {
  return {
    resource,
    subresource: '',
    body: { schema: SelfSubjectReviewSchema, group: resource.group, version: resource.version, kind: 'SelfSubjectReview' },
    async create(ctx, _name, obj) {
      const review = obj as SelfSubjectReview;
      return {
        kind: 'SelfSubjectReview',
        apiVersion: apiVersionOf(resource),
        metadata: { ...review.metadata },
        status: { userInfo: toAuthenticationUserInfo(ctx.user) },
      };
    },
  };
}
