// Endpoints that only take a POST and store nothing: access reviews, TokenReview,
// SelfSubjectReview (virtual resources) and serviceaccounts/{name}/token (a subresource).
// The HTTP layer decodes the body with `body`'s schema and answers 201 with what create returns.
import type { ApiObject, ObjectSchema, ResourceInfo } from '../api';
import type { RequestContext } from './strategy';

export interface CreateOnlyEndpoint {
  /** The resource served: the virtual resource itself, or the parent of `subresource`. */
  readonly resource: ResourceInfo;
  /** '' for a virtual resource, else the subresource name (e.g. 'token'). */
  readonly subresource: string;
  /** The kind the body must be and the response is. */
  readonly body: { schema: ObjectSchema; group: string; version: string; kind: string };
  /** `name` is the URL's name ('' for a collection POST). Throws ApiError for bad requests. */
  create(ctx: RequestContext, name: string, obj: ApiObject): Promise<ApiObject>;
}
