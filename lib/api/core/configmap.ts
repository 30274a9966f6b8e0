import { listSchemaOf, ObjectMetaSchema } from '../meta';
import { openapiDefinitionPrefix as P } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';

// Field numbers from upstream k8s.io/api core/v1 generated.proto (message ConfigMap); the
// order below is the Go struct's, which is the JSON output order.
export const ConfigMapSchema = defineObject({
  name: `${P.api}.core.v1.ConfigMap`,
  description: 'ConfigMap holds configuration data for pods to consume.',
  fields: {
    apiVersion: s.string({ description: 'APIVersion defines the versioned schema of this representation of an object.' }),
    kind: s.string({ description: 'Kind is a string value representing the REST resource this object represents.' }),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "Standard object's metadata." }),
    immutable: s.boolean({
      protobuf: 4,
      description:
        'Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.',
    }),
    data: s.map(s.string(), {
      protobuf: 2,
      description:
        "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
    }),
    binaryData: s.map(s.bytes(), {
      protobuf: 3,
      description:
        "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range. The keys stored in BinaryData must not overlap with the ones in the Data field, this is enforced during validation process. Using this field will require 1.10+ apiserver and kubelet.",
    }),
  },
});

export const ConfigMapListSchema = listSchemaOf(ConfigMapSchema, 'ConfigMapList is a resource containing a list of ConfigMap objects.', 'Items is the list of ConfigMaps.');

export type ConfigMap = ObjectOf<typeof ConfigMapSchema>;

export const configmaps: ResourceInfo = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  listKind: 'ConfigMapList',
  resource: 'configmaps',
  singular: 'configmap',
  shortNames: ['cm'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  schema: ConfigMapSchema,
  subresources: [],
};
