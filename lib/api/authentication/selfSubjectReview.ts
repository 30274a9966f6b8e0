// SelfSubjectReview: "who am I?" (create only, nothing stored).
import { ObjectMetaSchema } from '../meta';
import { groups } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';
import { authenticationDefinitionName as name, UserInfoSchema } from './userInfo';

export const SelfSubjectReviewStatusSchema = defineObject({
  name: name('SelfSubjectReviewStatus'),
  description: 'SelfSubjectReviewStatus is filled by the kube-apiserver and sent back to a user.',
  fields: {
    userInfo: s.object(() => UserInfoSchema, { protobuf: 1, description: 'User attributes of the user making this request.' }),
  },
});

export const SelfSubjectReviewSchema = defineObject({
  name: name('SelfSubjectReview'),
  description: 'SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request.',
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "Standard object's metadata." }),
    status: s.object(() => SelfSubjectReviewStatusSchema, { protobuf: 2, alwaysEmit: true, description: 'Status is filled in by the server with the user attributes.' }),
  },
});

export type SelfSubjectReview = ObjectOf<typeof SelfSubjectReviewSchema>;

export const selfsubjectreviews: ResourceInfo = {
  group: groups.authentication,
  version: 'v1',
  kind: 'SelfSubjectReview',
  listKind: 'SelfSubjectReviewList',
  resource: 'selfsubjectreviews',
  singular: 'selfsubjectreview',
  shortNames: [],
  namespaced: false,
  verbs: ['create'],
  schema: SelfSubjectReviewSchema,
  subresources: [],
};

/**
 * The same kind and schema as v1beta1 (beta since 1.27: off unless --runtime-config enables it,
 * deprecated 1.30, removed 1.33 by default). kubectl 1.27's `auth whoami` asks only for it.
 */
export const selfsubjectreviewsV1beta1: ResourceInfo = {
  ...selfsubjectreviews,
  version: 'v1beta1',
  lifecycle: { introduced: { major: 1, minor: 27 }, replacement: { group: groups.authentication, version: 'v1', kind: 'SelfSubjectReview' } },
};
