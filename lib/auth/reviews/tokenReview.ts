// TokenReview: runs a bearer token through the token authenticators, as a resource server would.
import { groups, tokenreviews, TokenReview, TokenReviewSchema } from '../../api';
import { errors } from '../../machinery/errors';
import type { CreateOnlyEndpoint } from '../../registry/createOnly';
import type { TokenAuthenticator } from '../bearer';
import { withAuthenticatedGroup } from '../user';
import { toAuthenticationUserInfo } from './userInfo';

export interface TokenReviewOptions {
  tokenAuthenticator: TokenAuthenticator;
  /** --api-audiences: used when the review names none. */
  apiAudiences: readonly string[];
}

export function tokenReviewEndpoint(opts: TokenReviewOptions): CreateOnlyEndpoint {
  return {
    resource: tokenreviews,
    subresource: '',
    body: { schema: TokenReviewSchema, group: groups.authentication, version: 'v1', kind: 'TokenReview' },
    async create(_ctx, _name, obj) {
      const review = obj as TokenReview;
      const token = review.spec?.token ?? '';
      if (!token) throw errors.badRequest(`token is required for TokenReview in authentication`);
      const audiences = review.spec?.audiences?.length ? review.spec.audiences : [...opts.apiAudiences];
      const status: NonNullable<TokenReview['status']> = { authenticated: false };
      try {
        const result = await opts.tokenAuthenticator.authenticateToken(token, audiences);
        if (result) {
          status.authenticated = true;
          status.user = toAuthenticationUserInfo(withAuthenticatedGroup(result.user));
          status.audiences = result.audiences;
        }
      } catch (e) {
        status.error = e instanceof Error ? (e.cause !== undefined ? String(e.cause) : e.message) : String(e);
      }
      return {
        kind: 'TokenReview',
        apiVersion: `${groups.authentication}/v1`,
        metadata: { ...review.metadata },
        spec: review.spec,
        status,
      };
    },
  };
}
