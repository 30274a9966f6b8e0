import { listSchemaOf, ObjectMetaSchema } from '../meta';
import { namespaceFinalizer, openapiDefinitionPrefix as P } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';

const name = (n: string): string => `${P.api}.core.v1.${n}`;

export const NamespaceConditionSchema = defineObject({
  name: name('NamespaceCondition'),
  description: 'NamespaceCondition contains details about state of namespace.',
  fields: {
    type: s.string({ protobuf: 1, required: true, alwaysEmit: true, description: 'Type of namespace controller condition.' }),
    status: s.string({ protobuf: 2, required: true, alwaysEmit: true, description: 'Status of the condition, one of True, False, Unknown.' }),
    lastTransitionTime: s.time({ protobuf: 4, description: 'Last time the condition transitioned from one status to another.' }),
    reason: s.string({ protobuf: 5, description: 'Unique, one-word, CamelCase reason for the condition\'s last transition.' }),
    message: s.string({ protobuf: 6, description: 'Human-readable message indicating details about last transition.' }),
  },
});

export const NamespaceSpecSchema = defineObject({
  name: name('NamespaceSpec'),
  description: 'NamespaceSpec describes the attributes on a Namespace.',
  fields: {
    finalizers: s.array(s.string(), { protobuf: 1, listType: 'atomic', description: 'Finalizers is an opaque list of values that must be empty to permanently remove object from storage.' }),
  },
});

export const NamespaceStatusSchema = defineObject({
  name: name('NamespaceStatus'),
  description: 'NamespaceStatus is information about the current status of a Namespace.',
  fields: {
    phase: s.string({ protobuf: 1, enum: ['Active', 'Terminating'], description: 'Phase is the current lifecycle phase of the namespace.' }),
    conditions: s.array(s.object(() => NamespaceConditionSchema), {
      protobuf: 2,
      listType: 'map',
      listMapKeys: ['type'],
      patchStrategy: 'merge',
      patchMergeKey: 'type',
      description: 'Represents the latest available observations of a namespace\'s current state.',
    }),
  },
});

export const NamespaceSchema = defineObject({
  name: name('Namespace'),
  description: 'Namespace provides a scope for Names. Use of multiple namespaces is optional.',
  fields: {
    apiVersion: s.string({ description: 'APIVersion defines the versioned schema of this representation of an object.' }),
    kind: s.string({ description: 'Kind is a string value representing the REST resource this object represents.' }),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: 'Standard object\'s metadata.' }),
    spec: s.object(() => NamespaceSpecSchema, { protobuf: 2, alwaysEmit: true, description: 'Spec defines the behavior of the Namespace.' }),
    status: s.object(() => NamespaceStatusSchema, { protobuf: 3, alwaysEmit: true, description: 'Status describes the current status of a Namespace.' }),
  },
});

export const NamespaceListSchema = listSchemaOf(NamespaceSchema, 'NamespaceList is a list of Namespaces.', 'Items is the list of Namespace objects in the list.');

export type Namespace = ObjectOf<typeof NamespaceSchema>;

export const namespaces: ResourceInfo = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  resource: 'namespaces',
  singular: 'namespace',
  shortNames: ['ns'],
  namespaced: false,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  schema: NamespaceSchema,
  subresources: [
    { name: 'finalize', verbs: ['update'] },
    { name: 'status', verbs: ['get', 'patch', 'update'] },
  ],
};

export const defaultNamespaceFinalizers = [namespaceFinalizer];
