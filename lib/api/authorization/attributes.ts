// What an access review asks about: a resource request or a non-resource URL, and the answer.
import { openapiDefinitionPrefix as P } from '../product';
import { defineObject, ObjectOf, s } from '../schema';

export const authorizationDefinitionName = (n: string): string => `${P.api}.authorization.v1.${n}`;
const name = authorizationDefinitionName;

export const ResourceAttributesSchema = defineObject({
  name: name('ResourceAttributes'),
  description: 'ResourceAttributes includes the authorization attributes available for resource requests to the Authorizer interface',
  fields: {
    namespace: s.string({ protobuf: 1, description: 'Namespace is the namespace of the action being requested.  Currently, there is no distinction between no namespace and all namespaces "" (empty) is defaulted for LocalSubjectAccessReviews "" (empty) is empty for cluster-scoped resources "" (empty) means "all" for namespace scoped resources from a SubjectAccessReview or SelfSubjectAccessReview' }),
    verb: s.string({ protobuf: 2, description: 'Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.  "*" means all.' }),
    group: s.string({ protobuf: 3, description: 'Group is the API Group of the Resource.  "*" means all.' }),
    version: s.string({ protobuf: 4, description: 'Version is the API Version of the Resource.  "*" means all.' }),
    resource: s.string({ protobuf: 5, description: 'Resource is one of the existing resource types.  "*" means all.' }),
    subresource: s.string({ protobuf: 6, description: 'Subresource is one of the existing resource types.  "" means none.' }),
    name: s.string({ protobuf: 7, description: 'Name is the name of the resource being requested for a "get" or deleted for a "delete". "" (empty) means all.' }),
  },
});

export const NonResourceAttributesSchema = defineObject({
  name: name('NonResourceAttributes'),
  description: 'NonResourceAttributes includes the authorization attributes available for non-resource requests to the Authorizer interface',
  fields: {
    path: s.string({ protobuf: 1, description: 'Path is the URL path of the request' }),
    verb: s.string({ protobuf: 2, description: 'Verb is the standard HTTP verb' }),
  },
});

export const SubjectAccessReviewStatusSchema = defineObject({
  name: name('SubjectAccessReviewStatus'),
  description: 'SubjectAccessReviewStatus',
  fields: {
    allowed: s.boolean({ protobuf: 1, required: true, alwaysEmit: true, description: 'Allowed is required. True if the action would be allowed, false otherwise.' }),
    denied: s.boolean({ protobuf: 4, description: 'Denied is optional. True if the action would be denied, otherwise false. If both allowed is false and denied is false, then the authorizer has no opinion on whether to authorize the action. Denied may not be true if Allowed is true.' }),
    reason: s.string({ protobuf: 2, description: 'Reason is optional.  It indicates why a request was allowed or denied.' }),
    evaluationError: s.string({ protobuf: 3, description: 'EvaluationError is an indication that some error occurred during the authorization check. It is entirely possible to get an error and be able to continue determine authorization status in spite of it. For instance, RBAC can be missing a role, but enough roles are still present and bound to reason about the request.' }),
  },
});

export type ResourceAttributes = ObjectOf<typeof ResourceAttributesSchema>;
export type NonResourceAttributes = ObjectOf<typeof NonResourceAttributesSchema>;
export type SubjectAccessReviewStatus = ObjectOf<typeof SubjectAccessReviewStatusSchema>;
