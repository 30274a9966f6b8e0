import { listSchemaOf, LocalObjectReferenceSchema, ObjectMetaSchema, ObjectReferenceSchema } from '../meta';
import { tokenRequestKind } from '../authentication/tokenRequest';
import { openapiDefinitionPrefix as P } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';

const name = (n: string): string => `${P.api}.core.v1.${n}`;

export const ServiceAccountSchema = defineObject({
  name: name('ServiceAccount'),
  description:
    'ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets',
  fields: {
    apiVersion: s.string({ description: 'APIVersion defines the versioned schema of this representation of an object.' }),
    kind: s.string({ description: 'Kind is a string value representing the REST resource this object represents.' }),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: 'Standard object\'s metadata.' }),
    secrets: s.array(s.object(() => ObjectReferenceSchema), {
      protobuf: 2,
      listType: 'map',
      listMapKeys: ['name'],
      patchStrategy: 'merge',
      patchMergeKey: 'name',
      description: 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
    }),
    imagePullSecrets: s.array(s.object(() => LocalObjectReferenceSchema), {
      protobuf: 3,
      listType: 'atomic',
      description: 'ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount.',
    }),
    automountServiceAccountToken: s.boolean({
      protobuf: 4,
      description: 'AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted.',
    }),
  },
});

export const ServiceAccountListSchema = listSchemaOf(ServiceAccountSchema, 'ServiceAccountList is a list of ServiceAccount objects', 'List of ServiceAccounts.');

export type ServiceAccount = ObjectOf<typeof ServiceAccountSchema>;

export const serviceaccounts: ResourceInfo = {
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  listKind: 'ServiceAccountList',
  resource: 'serviceaccounts',
  singular: 'serviceaccount',
  shortNames: ['sa'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  schema: ServiceAccountSchema,
  subresources: [{ name: 'token', verbs: ['create'], kind: tokenRequestKind }],
};
