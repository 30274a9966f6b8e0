// TokenReview: "who is this token?" (create only, nothing stored).
import { ObjectMetaSchema } from '../meta';
import { groups } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';
import { authenticationDefinitionName as name, UserInfoSchema } from './userInfo';

export const TokenReviewSpecSchema = defineObject({
  name: name('TokenReviewSpec'),
  description: 'TokenReviewSpec is a description of the token authentication request.',
  fields: {
    token: s.string({ protobuf: 1, description: 'Token is the opaque bearer token.' }),
    audiences: s.array(s.string(), { protobuf: 2, listType: 'atomic', description: 'Audiences is a list of the identifiers that the resource server presented with the token identifies as. Audience-aware token authenticators will verify that the token was intended for at least one of the audiences in this list. If no audiences are provided, the audience will default to the audience of the Kubernetes apiserver.' }),
  },
});

export const TokenReviewStatusSchema = defineObject({
  name: name('TokenReviewStatus'),
  description: 'TokenReviewStatus is the result of the token authentication request.',
  fields: {
    authenticated: s.boolean({ protobuf: 1, description: 'Authenticated indicates that the token was associated with a known user.' }),
    user: s.object(() => UserInfoSchema, { protobuf: 2, description: 'User is the UserInfo associated with the provided token.' }),
    audiences: s.array(s.string(), { protobuf: 4, listType: 'atomic', description: "Audiences are audience identifiers chosen by the authenticator that are compatible with both the TokenReview and token. An identifier is any identifier in the intersection of the TokenReviewSpec audiences and the token's audiences." }),
    error: s.string({ protobuf: 3, description: "Error indicates that the token couldn't be checked" }),
  },
});

export const TokenReviewSchema = defineObject({
  name: name('TokenReview'),
  description: 'TokenReview attempts to authenticate a token to a known user. Note: TokenReview requests may be cached by the webhook token authenticator plugin in the kube-apiserver.',
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "Standard object's metadata." }),
    spec: s.object(() => TokenReviewSpecSchema, { protobuf: 2, required: true, alwaysEmit: true, description: 'Spec holds information about the request being evaluated' }),
    status: s.object(() => TokenReviewStatusSchema, { protobuf: 3, alwaysEmit: true, description: 'Status is filled in by the server and indicates whether the request can be authenticated.' }),
  },
});

export type TokenReview = ObjectOf<typeof TokenReviewSchema>;

export const tokenreviews: ResourceInfo = {
  group: groups.authentication,
  version: 'v1',
  kind: 'TokenReview',
  listKind: 'TokenReviewList',
  resource: 'tokenreviews',
  singular: 'tokenreview',
  shortNames: [],
  namespaced: false,
  verbs: ['create'],
  schema: TokenReviewSchema,
  subresources: [],
};
