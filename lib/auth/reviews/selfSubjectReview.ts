// SelfSubjectReview: answers "who am I" with the request's own authenticated identity.
import { groups, selfsubjectreviews, SelfSubjectReview, SelfSubjectReviewSchema } from '../../api';
import type { CreateOnlyEndpoint } from '../../registry/createOnly';
import { toAuthenticationUserInfo } from './userInfo';

export function selfSubjectReviewEndpoint(): CreateOnlyEndpoint {
  return {
    resource: selfsubjectreviews,
    subresource: '',
    body: { schema: SelfSubjectReviewSchema, group: groups.authentication, version: 'v1', kind: 'SelfSubjectReview' },
    async create(ctx, _name, obj) {
      const review = obj as SelfSubjectReview;
      return {
        kind: 'SelfSubjectReview',
        apiVersion: `${groups.authentication}/v1`,
        metadata: { ...review.metadata },
        status: { userInfo: toAuthenticationUserInfo(ctx.user) },
      };
    },
  };
}
