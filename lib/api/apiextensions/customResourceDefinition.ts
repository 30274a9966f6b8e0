// CustomResourceDefinition (apiextensions.svc.io/v1): a resource the server serves from its
// definition. Field numbers, JSON names and omitempty from upstream's apiextensions v1
// generated.proto and types.go (a Go field without omitempty is alwaysEmit here).
import { listSchemaOf, ObjectMetaSchema } from '../meta';
import { groups } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, type ObjectOf, s } from '../schema';
import { apiextensionsName as name, type JSONSchemaProps, JSONSchemaPropsSchema } from './jsonSchemaProps';

export const crdScopes = ['Cluster', 'Namespaced'] as const;
export const conversionStrategies = ['None', 'Webhook'] as const;

export const CustomResourceDefinitionNamesSchema = defineObject({
  name: name('CustomResourceDefinitionNames'),
  description: 'CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition',
  fields: {
    plural: s.string({ protobuf: 1, alwaysEmit: true, description: 'plural is the plural name of the resource to serve. Must be all lowercase.' }),
    singular: s.string({ protobuf: 2, description: 'singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.' }),
    shortNames: s.array(s.string(), { protobuf: 3, listType: 'atomic', description: 'shortNames are short names for the resource, exposed in API discovery documents. It must be all lowercase.' }),
    kind: s.string({ protobuf: 4, alwaysEmit: true, description: 'kind is the serialized kind of the resource. It is normally CamelCase and singular.' }),
    listKind: s.string({ protobuf: 5, description: 'listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".' }),
    categories: s.array(s.string(), { protobuf: 6, listType: 'atomic', description: 'categories is a list of grouped resources this custom resource belongs to (e.g. \'all\').' }),
  },
});

export const CustomResourceValidationSchema = defineObject({
  name: name('CustomResourceValidation'),
  description: 'CustomResourceValidation is a list of validation methods for CustomResources.',
  fields: {
    openAPIV3Schema: s.object(() => JSONSchemaPropsSchema, { protobuf: 1, description: 'openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.' }),
  },
});

export const CustomResourceSubresourceStatusSchema = defineObject({
  name: name('CustomResourceSubresourceStatus'),
  description: 'CustomResourceSubresourceStatus defines how to serve the status subresource for CustomResources.',
  fields: {},
});

export const CustomResourceSubresourceScaleSchema = defineObject({
  name: name('CustomResourceSubresourceScale'),
  description: 'CustomResourceSubresourceScale defines how to serve the scale subresource for CustomResources.',
  fields: {
    specReplicasPath: s.string({ protobuf: 1, alwaysEmit: true, description: 'specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`.' }),
    statusReplicasPath: s.string({ protobuf: 2, alwaysEmit: true, description: 'statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`.' }),
    labelSelectorPath: s.string({ protobuf: 3, description: 'labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`.' }),
  },
});

export const CustomResourceSubresourcesSchema = defineObject({
  name: name('CustomResourceSubresources'),
  description: 'CustomResourceSubresources defines the status and scale subresources for CustomResources.',
  fields: {
    status: s.object(() => CustomResourceSubresourceStatusSchema, { protobuf: 1, description: 'status indicates the custom resource should serve a `/status` subresource.' }),
    scale: s.object(() => CustomResourceSubresourceScaleSchema, { protobuf: 2, description: 'scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.' }),
  },
});

export const CustomResourceColumnDefinitionSchema = defineObject({
  name: name('CustomResourceColumnDefinition'),
  description: 'CustomResourceColumnDefinition specifies a column for server side printing.',
  fields: {
    name: s.string({ protobuf: 1, alwaysEmit: true, description: 'name is a human readable name for the column.' }),
    type: s.string({ protobuf: 2, alwaysEmit: true, description: 'type is an OpenAPI type definition for this column.' }),
    format: s.string({ protobuf: 3, description: 'format is an optional OpenAPI type definition for this column.' }),
    description: s.string({ protobuf: 4, description: 'description is a human readable description of this column.' }),
    priority: s.int32({ protobuf: 5, description: 'priority is an integer defining the relative importance of this column compared to others.' }),
    jsonPath: s.string({ protobuf: 6, alwaysEmit: true, description: 'jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.' }),
  },
});

export const SelectableFieldSchema = defineObject({
  name: name('SelectableField'),
  description: 'SelectableField specifies the JSON path of a field that may be used with field selectors.',
  fields: {
    jsonPath: s.string({ protobuf: 1, alwaysEmit: true, description: 'jsonPath is a simple JSON path which is evaluated against each custom resource to produce a field selector value.' }),
  },
});

export const CustomResourceDefinitionVersionSchema = defineObject({
  name: name('CustomResourceDefinitionVersion'),
  description: 'CustomResourceDefinitionVersion describes a version for CRD.',
  fields: {
    name: s.string({ protobuf: 1, alwaysEmit: true, description: 'name is the version name, e.g. “v1”, “v2beta1”, etc.' }),
    served: s.boolean({ protobuf: 2, alwaysEmit: true, description: 'served is a flag enabling/disabling this version from being served via REST APIs' }),
    storage: s.boolean({ protobuf: 3, alwaysEmit: true, description: 'storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.' }),
    deprecated: s.boolean({ protobuf: 7, description: 'deprecated indicates this version of the custom resource API is deprecated.' }),
    deprecationWarning: s.string({ protobuf: 8, description: 'deprecationWarning overrides the default warning returned to API clients. May only be set when `deprecated` is true.' }),
    schema: s.object(() => CustomResourceValidationSchema, { protobuf: 4, description: 'schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.' }),
    subresources: s.object(() => CustomResourceSubresourcesSchema, { protobuf: 5, description: 'subresources specify what subresources this version of the defined custom resource have.' }),
    additionalPrinterColumns: s.array(s.object(() => CustomResourceColumnDefinitionSchema), { protobuf: 6, listType: 'atomic', description: 'additionalPrinterColumns specifies additional columns returned in Table output.' }),
    selectableFields: s.array(s.object(() => SelectableFieldSchema), { protobuf: 9, listType: 'atomic', description: 'selectableFields specifies paths to fields that may be used as field selectors. A maximum of 8 selectable fields are allowed.' }),
  },
});

export const ServiceReferenceSchema = defineObject({
  name: name('ServiceReference'),
  description: 'ServiceReference holds a reference to Service.legacy.k8s.io',
  fields: {
    namespace: s.string({ protobuf: 1, alwaysEmit: true, description: 'namespace is the namespace of the service. Required' }),
    name: s.string({ protobuf: 2, alwaysEmit: true, description: 'name is the name of the service. Required' }),
    path: s.string({ protobuf: 3, description: 'path is an optional URL path at which the webhook will be contacted.' }),
    port: s.int32({ protobuf: 4, description: 'port is an optional service port at which the webhook will be contacted. Defaults to 443 for backward compatibility.' }),
  },
});

export const WebhookClientConfigSchema = defineObject({
  name: name('WebhookClientConfig'),
  description: 'WebhookClientConfig contains the information to make a TLS connection with the webhook.',
  fields: {
    url: s.string({ protobuf: 3, description: 'url gives the location of the webhook, in standard URL form (`scheme://host:port/path`). Exactly one of `url` or `service` must be specified.' }),
    service: s.object(() => ServiceReferenceSchema, { protobuf: 1, description: 'service is a reference to the service for this webhook. Either service or url must be specified.' }),
    caBundle: s.bytes({ protobuf: 2, description: "caBundle is a PEM encoded CA bundle which will be used to validate the webhook's server certificate." }),
  },
});

export const WebhookConversionSchema = defineObject({
  name: name('WebhookConversion'),
  description: 'WebhookConversion describes how to call a conversion webhook',
  fields: {
    clientConfig: s.object(() => WebhookClientConfigSchema, { protobuf: 2, description: 'clientConfig is the instructions for how to call the webhook if strategy is `Webhook`.' }),
    conversionReviewVersions: s.array(s.string(), { protobuf: 3, alwaysEmit: true, listType: 'atomic', description: 'conversionReviewVersions is an ordered list of preferred `ConversionReview` versions the Webhook expects.' }),
  },
});

export const CustomResourceConversionSchema = defineObject({
  name: name('CustomResourceConversion'),
  description: 'CustomResourceConversion describes how to convert different versions of a CR.',
  fields: {
    strategy: s.string({ protobuf: 1, alwaysEmit: true, description: 'strategy specifies how custom resources are converted between versions. Allowed values are: `None`, `Webhook`.' }),
    webhook: s.object(() => WebhookConversionSchema, { protobuf: 2, description: 'webhook describes how to call the conversion webhook. Required when `strategy` is set to `Webhook`.' }),
  },
});

export const CustomResourceDefinitionSpecSchema = defineObject({
  name: name('CustomResourceDefinitionSpec'),
  description: 'CustomResourceDefinitionSpec describes how a user wants their resource to appear',
  fields: {
    group: s.string({ protobuf: 1, alwaysEmit: true, description: 'group is the API group of the defined custom resource.' }),
    names: s.object(() => CustomResourceDefinitionNamesSchema, { protobuf: 3, alwaysEmit: true, description: 'names specify the resource and kind names for the custom resource.' }),
    scope: s.string({ protobuf: 4, alwaysEmit: true, description: 'scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.' }),
    versions: s.array(s.object(() => CustomResourceDefinitionVersionSchema), { protobuf: 7, alwaysEmit: true, listType: 'atomic', description: 'versions is the list of all API versions of the defined custom resource.' }),
    conversion: s.object(() => CustomResourceConversionSchema, { protobuf: 9, description: 'conversion defines conversion settings for the CRD.' }),
    preserveUnknownFields: s.boolean({ protobuf: 10, description: 'preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage.' }),
  },
});

export const CustomResourceDefinitionConditionSchema = defineObject({
  name: name('CustomResourceDefinitionCondition'),
  description: 'CustomResourceDefinitionCondition contains details for the current condition of this pod.',
  fields: {
    type: s.string({ protobuf: 1, alwaysEmit: true, description: 'type is the type of the condition. Types include Established, NamesAccepted and Terminating.' }),
    status: s.string({ protobuf: 2, alwaysEmit: true, description: 'status is the status of the condition. Can be True, False, Unknown.' }),
    lastTransitionTime: s.time({ protobuf: 3, description: 'lastTransitionTime last time the condition transitioned from one status to another.' }),
    reason: s.string({ protobuf: 4, description: "reason is a unique, one-word, CamelCase reason for the condition's last transition." }),
    message: s.string({ protobuf: 5, description: 'message is a human-readable message indicating details about last transition.' }),
  },
});

export const CustomResourceDefinitionStatusSchema = defineObject({
  name: name('CustomResourceDefinitionStatus'),
  description: 'CustomResourceDefinitionStatus indicates the state of the CustomResourceDefinition',
  fields: {
    conditions: s.array(s.object(() => CustomResourceDefinitionConditionSchema), { protobuf: 1, listType: 'map', listMapKeys: ['type'], description: 'conditions indicate state for particular aspects of a CustomResourceDefinition' }),
    acceptedNames: s.object(() => CustomResourceDefinitionNamesSchema, { protobuf: 2, alwaysEmit: true, description: 'acceptedNames are the names that are actually being used to serve discovery. They may be different than the names in spec.' }),
    storedVersions: s.array(s.string(), { protobuf: 3, alwaysEmit: true, listType: 'atomic', description: 'storedVersions lists all versions of CustomResources that were ever persisted.' }),
  },
});

export const CustomResourceDefinitionSchema = defineObject({
  name: name('CustomResourceDefinition'),
  description: 'CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.',
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: 'Standard object\'s metadata More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata' }),
    spec: s.object(() => CustomResourceDefinitionSpecSchema, { protobuf: 2, alwaysEmit: true, description: 'spec describes how the user wants the resources to appear' }),
    status: s.object(() => CustomResourceDefinitionStatusSchema, { protobuf: 3, alwaysEmit: true, description: 'status indicates the actual state of the CustomResourceDefinition' }),
  },
});

export const CustomResourceDefinitionListSchema = listSchemaOf(
  CustomResourceDefinitionSchema,
  'CustomResourceDefinitionList is a list of CustomResourceDefinition objects.',
  'items list individual CustomResourceDefinition objects',
);

/** openAPIV3Schema as its recursive JSON shape (ObjectOf cannot name a recursive type). */
type WithSchemaProps<V> = Omit<V, 'schema'> & { schema?: { openAPIV3Schema?: JSONSchemaProps } };
export type CustomResourceDefinitionVersion = WithSchemaProps<ObjectOf<typeof CustomResourceDefinitionVersionSchema>>;
export type CustomResourceDefinitionNames = ObjectOf<typeof CustomResourceDefinitionNamesSchema>;
export type CustomResourceConversion = ObjectOf<typeof CustomResourceConversionSchema>;
export type CustomResourceColumnDefinition = ObjectOf<typeof CustomResourceColumnDefinitionSchema>;
export type CustomResourceSubresources = ObjectOf<typeof CustomResourceSubresourcesSchema>;
export type CustomResourceDefinitionCondition = ObjectOf<typeof CustomResourceDefinitionConditionSchema>;
export type CustomResourceDefinitionStatus = ObjectOf<typeof CustomResourceDefinitionStatusSchema>;
export type CustomResourceDefinitionSpec = Omit<ObjectOf<typeof CustomResourceDefinitionSpecSchema>, 'versions'> & {
  versions?: CustomResourceDefinitionVersion[];
};
export type CustomResourceDefinition = Omit<ObjectOf<typeof CustomResourceDefinitionSchema>, 'spec'> & { spec?: CustomResourceDefinitionSpec };

/** The version custom resources are stored in (the one with storage: true), if exactly one is. */
export function storageVersionOf(crd: CustomResourceDefinition): string | undefined {
  const storage = (crd.spec?.versions ?? []).filter((v) => v.storage === true);
  return storage.length === 1 ? storage[0].name : undefined;
}

export const customresourcedefinitions: ResourceInfo = {
  group: groups.apiextensions,
  version: 'v1',
  kind: 'CustomResourceDefinition',
  listKind: 'CustomResourceDefinitionList',
  resource: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  schema: CustomResourceDefinitionSchema,
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  storagePath: `${groups.apiextensions}/customresourcedefinitions`,
};

/** Keeps a deleted CRD until its custom resources are gone (upstream's crd finalizer). */
export const crdCleanupFinalizer = `customresourcecleanup.${groups.apiextensions}`;
