// TokenRequest: the body of serviceaccounts/{name}/token (create only, nothing stored).
import { ObjectMetaSchema } from '../meta';
import { groups } from '../product';
import { defineObject, ObjectOf, s } from '../schema';
import { authenticationDefinitionName as name } from './userInfo';

export const BoundObjectReferenceSchema = defineObject({
  name: name('BoundObjectReference'),
  description: 'BoundObjectReference is a reference to an object that a token is bound to.',
  fields: {
    kind: s.string({ protobuf: 1, description: "Kind of the referent. Valid kinds are 'Pod' and 'Secret'." }),
    apiVersion: s.string({ protobuf: 2, description: 'API version of the referent.' }),
    name: s.string({ protobuf: 3, description: 'Name of the referent.' }),
    uid: s.string({ protobuf: 4, description: 'UID of the referent.' }),
  },
});

export const TokenRequestSpecSchema = defineObject({
  name: name('TokenRequestSpec'),
  description: 'TokenRequestSpec contains client provided parameters of a token request.',
  fields: {
    audiences: s.array(s.string(), { protobuf: 1, required: true, alwaysEmit: true, listType: 'atomic', description: 'Audiences are the intendend audiences of the token. A recipient of a token must identify themself with an identifier in the list of audiences of the token, and otherwise should reject the token. A token issued for multiple audiences may be used to authenticate against any of the audiences listed but implies a high degree of trust between the target audiences.' }),
    expirationSeconds: s.int64({ protobuf: 4, description: 'ExpirationSeconds is the requested duration of validity of the request. The token issuer may return a token with a different validity duration so a client needs to check the \'expiration\' field in a response.' }),
    boundObjectRef: s.object(() => BoundObjectReferenceSchema, { protobuf: 3, description: 'BoundObjectRef is a reference to an object that the token will be bound to. The token will only be valid for as long as the bound object exists.' }),
  },
});

export const TokenRequestStatusSchema = defineObject({
  name: name('TokenRequestStatus'),
  description: 'TokenRequestStatus is the result of a token request.',
  fields: {
    token: s.string({ protobuf: 1, required: true, alwaysEmit: true, description: 'Token is the opaque bearer token.' }),
    expirationTimestamp: s.time({ protobuf: 2, required: true, alwaysEmit: true, description: 'ExpirationTimestamp is the time of expiration of the returned token.' }),
  },
});

export const TokenRequestSchema = defineObject({
  name: name('TokenRequest'),
  description: 'TokenRequest requests a token for a given service account.',
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "Standard object's metadata." }),
    spec: s.object(() => TokenRequestSpecSchema, { protobuf: 2, required: true, alwaysEmit: true, description: 'Spec holds information about the request being evaluated' }),
    status: s.object(() => TokenRequestStatusSchema, { protobuf: 3, alwaysEmit: true, description: 'Status is filled in by the server and indicates whether the token can be authenticated.' }),
  },
});

export type TokenRequest = ObjectOf<typeof TokenRequestSchema>;

export const tokenRequestKind = { group: groups.authentication, version: 'v1', kind: 'TokenRequest' } as const;
