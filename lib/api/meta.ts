// Meta types shared by every kind: ObjectMeta, ListMeta, Status, DeleteOptions and references.
import { openapiDefinitionPrefix as P } from './product';
import { defineObject, ObjectOf, ObjectSchema, s } from './schema';

const meta = (n: string): string => `${P.meta}.${n}`;
const core = (n: string): string => `${P.api}.core.v1.${n}`;

export const OwnerReferenceSchema = defineObject({
  name: meta('OwnerReference'),
  description: 'OwnerReference contains enough information to let you identify an owning object.',
  fields: {
    apiVersion: s.string({ protobuf: 5, required: true, alwaysEmit: true, description: 'API version of the referent.' }),
    kind: s.string({ protobuf: 1, required: true, alwaysEmit: true, description: 'Kind of the referent.' }),
    name: s.string({ protobuf: 3, required: true, alwaysEmit: true, description: 'Name of the referent.' }),
    uid: s.string({ protobuf: 4, required: true, alwaysEmit: true, description: 'UID of the referent.' }),
    controller: s.boolean({ protobuf: 6, description: 'If true, this reference points to the managing controller.' }),
    blockOwnerDeletion: s.boolean({ protobuf: 7, description: 'If true, the owner cannot be deleted until this reference is removed.' }),
  },
});

export const ManagedFieldsEntrySchema = defineObject({
  name: meta('ManagedFieldsEntry'),
  description: 'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
  fields: {
    manager: s.string({ protobuf: 1, description: 'Manager is an identifier of the workflow managing these fields.' }),
    operation: s.string({ protobuf: 2, description: "Operation is the type of operation which lead to this entry: 'Apply' or 'Update'." }),
    apiVersion: s.string({ protobuf: 3, description: 'APIVersion defines the version of this resource that this field set applies to.' }),
    time: s.time({ protobuf: 4, description: 'Time is the timestamp of when the ManagedFields entry was added.' }),
    fieldsType: s.string({ protobuf: 6, description: 'FieldsType is the discriminator for the different fields format and version.' }),
    fieldsV1: s.any({ protobuf: 7, description: 'FieldsV1 holds the first JSON version format.' }),
    subresource: s.string({ protobuf: 8, description: 'Subresource is the name of the subresource used to update that object.' }),
  },
});

// The server-owned ObjectMeta fields (uid, resourceVersion, generation, creationTimestamp,
// deletionTimestamp, deletionGracePeriodSeconds) carry no serverSet marker: what becomes of a
// client's value depends on the stored object (upstream's rest.BeforeCreate/BeforeUpdate: a uid
// sent on update is kept and refused if it differs, resourceVersion is the update's precondition,
// generation follows the kind), so lib/registry/systemFields.ts and ObjectMeta validation decide.
export const ObjectMetaSchema = defineObject({
  name: meta('ObjectMeta'),
  description: 'ObjectMeta is metadata that all persisted resources must have.',
  fields: {
    name: s.string({ protobuf: 1, description: 'Name must be unique within a namespace.' }),
    generateName: s.string({ protobuf: 2, description: 'An optional prefix used by the server to generate a unique name.' }),
    namespace: s.string({ protobuf: 3, description: 'Namespace defines the space within which each name must be unique.' }),
    selfLink: s.string({ protobuf: 4, description: 'Deprecated: selfLink is a legacy read-only field that is no longer populated.' }),
    uid: s.string({ protobuf: 5, description: 'UID is the unique in time and space value for this object.' }),
    resourceVersion: s.string({ protobuf: 6, description: 'An opaque value that represents the internal version of this object.' }),
    generation: s.int64({ protobuf: 7, description: 'A sequence number representing a specific generation of the desired state.' }),
    creationTimestamp: s.time({ protobuf: 8, description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' }),
    deletionTimestamp: s.time({ protobuf: 9, description: 'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted.' }),
    deletionGracePeriodSeconds: s.int64({ protobuf: 10, description: 'Number of seconds allowed for this object to gracefully terminate.' }),
    labels: s.map(s.string(), { protobuf: 11, description: 'Map of string keys and values that can be used to organize and categorize objects.' }),
    annotations: s.map(s.string(), { protobuf: 12, description: 'Annotations is an unstructured key value map stored with a resource.' }),
    ownerReferences: s.array(s.object(() => OwnerReferenceSchema), {
      protobuf: 13,
      listType: 'map',
      listMapKeys: ['uid'],
      patchStrategy: 'merge',
      patchMergeKey: 'uid',
      description: 'List of objects depended by this object.',
    }),
    finalizers: s.array(s.string(), {
      protobuf: 14,
      listType: 'set',
      patchStrategy: 'merge',
      description: 'Must be empty before the object is deleted from the registry.',
    }),
    managedFields: s.array(s.object(() => ManagedFieldsEntrySchema), {
      protobuf: 17,
      listType: 'atomic',
      description: 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.',
    }),
  },
});

export const ListMetaSchema = defineObject({
  name: meta('ListMeta'),
  description: 'ListMeta describes metadata that synthetic resources must have, including lists.',
  fields: {
    selfLink: s.string({ protobuf: 1 }),
    resourceVersion: s.string({ protobuf: 2, description: 'String that identifies the server\'s internal version of this object.' }),
    continue: s.string({ protobuf: 3, description: 'continue may be set if the user set a limit on the number of items returned.' }),
    remainingItemCount: s.int64({ protobuf: 4, description: 'The number of subsequent items in the list which are not included in this list response.' }),
  },
});

export const StatusCauseSchema = defineObject({
  name: meta('StatusCause'),
  fields: {
    reason: s.string({ protobuf: 1 }),
    message: s.string({ protobuf: 2 }),
    field: s.string({ protobuf: 3 }),
  },
});

export const StatusDetailsSchema = defineObject({
  name: meta('StatusDetails'),
  fields: {
    name: s.string({ protobuf: 1 }),
    group: s.string({ protobuf: 2 }),
    kind: s.string({ protobuf: 3 }),
    uid: s.string({ protobuf: 6 }),
    causes: s.array(s.object(() => StatusCauseSchema), { protobuf: 4, listType: 'atomic' }),
    retryAfterSeconds: s.int32({ protobuf: 5 }),
  },
});

export const StatusSchema = defineObject({
  name: meta('Status'),
  description: 'Status is a return value for calls that don\'t return other objects.',
  fields: {
    kind: s.string(),
    apiVersion: s.string(),
    metadata: s.object(() => ListMetaSchema, { protobuf: 1, alwaysEmit: true }),
    status: s.string({ protobuf: 2 }),
    message: s.string({ protobuf: 3 }),
    reason: s.string({ protobuf: 4 }),
    details: s.object(() => StatusDetailsSchema, { protobuf: 5 }),
    code: s.int32({ protobuf: 6 }),
  },
});

export const PreconditionsSchema = defineObject({
  name: meta('Preconditions'),
  fields: {
    uid: s.string({ protobuf: 1, description: 'Specifies the target UID.' }),
    resourceVersion: s.string({ protobuf: 2, description: 'Specifies the target ResourceVersion' }),
  },
});

export const DeleteOptionsSchema = defineObject({
  name: meta('DeleteOptions'),
  description: 'DeleteOptions may be provided when deleting an API object.',
  fields: {
    kind: s.string(),
    apiVersion: s.string(),
    gracePeriodSeconds: s.int64({ protobuf: 1 }),
    preconditions: s.object(() => PreconditionsSchema, { protobuf: 2 }),
    orphanDependents: s.boolean({ protobuf: 3 }),
    propagationPolicy: s.string({ protobuf: 4 }),
    dryRun: s.array(s.string(), { protobuf: 5, listType: 'atomic' }),
    ignoreStoreReadErrorWithClusterBreakingPotential: s.boolean({ protobuf: 6 }),
  },
});

export const LocalObjectReferenceSchema = defineObject({
  name: core('LocalObjectReference'),
  description: 'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
  fields: {
    name: s.string({ protobuf: 1, description: 'Name of the referent.' }),
  },
});

export const ObjectReferenceSchema = defineObject({
  name: core('ObjectReference'),
  description: 'ObjectReference contains enough information to let you inspect or modify the referred object.',
  fields: {
    kind: s.string({ protobuf: 1 }),
    namespace: s.string({ protobuf: 2 }),
    name: s.string({ protobuf: 3 }),
    uid: s.string({ protobuf: 4 }),
    apiVersion: s.string({ protobuf: 5 }),
    resourceVersion: s.string({ protobuf: 6 }),
    fieldPath: s.string({ protobuf: 7 }),
  },
});

export const LabelSelectorRequirementSchema = defineObject({
  name: meta('LabelSelectorRequirement'),
  description: 'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
  fields: {
    key: s.string({ protobuf: 1, required: true, alwaysEmit: true, description: 'key is the label key that the selector applies to.' }),
    operator: s.string({ protobuf: 2, required: true, alwaysEmit: true, description: "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist." }),
    values: s.array(s.string(), { protobuf: 3, listType: 'atomic', description: 'values is an array of string values.' }),
  },
});

export const LabelSelectorSchema = defineObject({
  name: meta('LabelSelector'),
  description: 'A label selector is a label query over a set of resources. An empty label selector matches all objects. A null label selector matches no objects.',
  fields: {
    matchLabels: s.map(s.string(), { protobuf: 1, description: 'matchLabels is a map of {key,value} pairs.' }),
    matchExpressions: s.array(s.object(() => LabelSelectorRequirementSchema), { protobuf: 2, listType: 'atomic', description: 'matchExpressions is a list of label selector requirements. The requirements are ANDed.' }),
  },
});

/** The List kind of a kind: apiVersion, kind, metadata (ListMeta) and items, named <Item>List. */
export function listSchemaOf<O extends ObjectSchema>(item: O, description: string, itemsDescription: string) {
  return defineObject({
    name: `${item.name}List`,
    description,
    fields: {
      apiVersion: s.string(),
      kind: s.string(),
      metadata: s.object(() => ListMetaSchema, { protobuf: 1 }),
      items: s.array(s.object(() => item), { protobuf: 2, required: true, description: itemsDescription }),
    },
  });
}

export type ObjectMeta = ObjectOf<typeof ObjectMetaSchema>;
export type LabelSelector = ObjectOf<typeof LabelSelectorSchema>;
export type ListMeta = ObjectOf<typeof ListMetaSchema>;
export type OwnerReference = ObjectOf<typeof OwnerReferenceSchema>;
export type ManagedFieldsEntry = ObjectOf<typeof ManagedFieldsEntrySchema>;
export type DeleteOptions = ObjectOf<typeof DeleteOptionsSchema>;
export type Preconditions = ObjectOf<typeof PreconditionsSchema>;

export type StatusReason =
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'ServerTimeout'
  | 'StorageReadError'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'ServiceUnavailable';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** Status with its fields in upstream's emission order (kind, apiVersion, metadata, status, …). */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: ListMeta;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: StatusCause[];
    retryAfterSeconds?: number;
  };
  code?: number;
}

/** Any stored or served object: typed kinds narrow this. */
export interface ApiObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

export interface ApiList<T extends ApiObject = ApiObject> {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: T[];
}

/** An object's metadata alone (`as=PartialObjectMetadata`, and the rows of a Table). */
export const PartialObjectMetadataSchema = defineObject({
  name: meta('PartialObjectMetadata'),
  description: 'PartialObjectMetadata is a generic representation of any object with ObjectMeta.',
  fields: {
    kind: s.string(),
    apiVersion: s.string(),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1 }),
  },
});

export const PartialObjectMetadataListSchema = listSchemaOf(
  PartialObjectMetadataSchema,
  'PartialObjectMetadataList contains a list of objects containing only their metadata',
  'items contains each of the included items.',
);
