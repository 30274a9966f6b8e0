// SubjectAccessReview (any user, cluster), LocalSubjectAccessReview (any user, one namespace) and
// SelfSubjectAccessReview (the caller): "may this subject do this?" — create only, nothing stored.
import { ObjectMetaSchema } from '../meta';
import { groups } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';
import { authorizationDefinitionName as name, NonResourceAttributesSchema, ResourceAttributesSchema, SubjectAccessReviewStatusSchema } from './attributes';

export const SubjectAccessReviewSpecSchema = defineObject({
  name: name('SubjectAccessReviewSpec'),
  description: 'SubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set',
  fields: {
    resourceAttributes: s.object(() => ResourceAttributesSchema, { protobuf: 1, description: 'ResourceAuthorizationAttributes describes information for a resource access request' }),
    nonResourceAttributes: s.object(() => NonResourceAttributesSchema, { protobuf: 2, description: 'NonResourceAttributes describes information for a non-resource access request' }),
    user: s.string({ protobuf: 3, description: 'User is the user you\'re testing for. If you specify "User" but not "Groups", then is it interpreted as "What if User were not a member of any groups' }),
    groups: s.array(s.string(), { protobuf: 4, listType: 'atomic', description: "Groups is the groups you're testing for." }),
    extra: s.map(s.array(s.string()), { protobuf: 5, description: 'Extra corresponds to the user.Info.GetExtra() method from the authenticator.  Since that is input to the authorizer it needs a reflection here.' }),
    uid: s.string({ protobuf: 6, description: 'UID information about the requesting user.' }),
  },
});

export const SelfSubjectAccessReviewSpecSchema = defineObject({
  name: name('SelfSubjectAccessReviewSpec'),
  description: 'SelfSubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set',
  fields: {
    resourceAttributes: s.object(() => ResourceAttributesSchema, { protobuf: 1, description: 'ResourceAuthorizationAttributes describes information for a resource access request' }),
    nonResourceAttributes: s.object(() => NonResourceAttributesSchema, { protobuf: 2, description: 'NonResourceAttributes describes information for a non-resource access request' }),
  },
});

const reviewFields = {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "Standard object's metadata." }),
  spec: s.object(() => SubjectAccessReviewSpecSchema, { protobuf: 2, required: true, alwaysEmit: true, description: 'Spec holds information about the request being evaluated' }),
  status: s.object(() => SubjectAccessReviewStatusSchema, { protobuf: 3, alwaysEmit: true, description: 'Status is filled in by the server and indicates whether the request is allowed or not' }),
};

export const SubjectAccessReviewSchema = defineObject({
  name: name('SubjectAccessReview'),
  description: 'SubjectAccessReview checks whether or not a user or group can perform an action.',
  fields: reviewFields,
});

export const LocalSubjectAccessReviewSchema = defineObject({
  name: name('LocalSubjectAccessReview'),
  description: 'LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped policy that includes permissions checking.',
  fields: reviewFields,
});

export const SelfSubjectAccessReviewSchema = defineObject({
  name: name('SelfSubjectAccessReview'),
  description: 'SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means "in all namespaces".  Self is a special case, because users should always be able to check whether they can perform an action',
  fields: {
    ...reviewFields,
    spec: s.object(() => SelfSubjectAccessReviewSpecSchema, { protobuf: 2, required: true, alwaysEmit: true, description: 'Spec holds information about the request being evaluated.  user and groups must be empty' }),
  },
});

export type SubjectAccessReview = ObjectOf<typeof SubjectAccessReviewSchema>;
export type LocalSubjectAccessReview = ObjectOf<typeof LocalSubjectAccessReviewSchema>;
export type SelfSubjectAccessReview = ObjectOf<typeof SelfSubjectAccessReviewSchema>;

const review = (kind: string, resource: string, namespaced: boolean, schema: ResourceInfo['schema']): ResourceInfo => ({
  group: groups.authorization,
  version: 'v1',
  kind,
  listKind: `${kind}List`,
  resource,
  singular: resource.slice(0, -1),
  shortNames: [],
  namespaced,
  verbs: ['create'],
  schema,
  subresources: [],
});

export const subjectaccessreviews = review('SubjectAccessReview', 'subjectaccessreviews', false, SubjectAccessReviewSchema);
export const localsubjectaccessreviews = review('LocalSubjectAccessReview', 'localsubjectaccessreviews', true, LocalSubjectAccessReviewSchema);
export const selfsubjectaccessreviews = review('SelfSubjectAccessReview', 'selfsubjectaccessreviews', false, SelfSubjectAccessReviewSchema);
