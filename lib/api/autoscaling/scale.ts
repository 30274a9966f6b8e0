// Scale (autoscaling/v1): the body of a resource's /scale subresource, a view of the parent's
// replica count and selector (custom resources with subresources.scale). autoscaling is
// upstream's plain group name under either naming profile: it carries no product word.
import { ObjectMetaSchema } from '../meta';
import { openapiDefinitionPrefix as P } from '../product';
import { defineObject, ObjectOf, s } from '../schema';

const name = (n: string): string => `${P.api}.autoscaling.v1.${n}`;

/** The group of Scale (never `autoscaling.<domain>`: clients and HPAs name autoscaling/v1). */
export const autoscalingGroup = 'autoscaling';

export const ScaleSpecSchema = defineObject({
  name: name('ScaleSpec'),
  description: 'ScaleSpec describes the attributes of a scale subresource.',
  fields: {
    replicas: s.int32({ protobuf: 1, description: 'replicas is the desired number of instances for the scaled object.' }),
  },
});

export const ScaleStatusSchema = defineObject({
  name: name('ScaleStatus'),
  description: 'ScaleStatus represents the current status of a scale subresource.',
  fields: {
    replicas: s.int32({ protobuf: 1, required: true, alwaysEmit: true, description: 'replicas is the actual number of observed instances of the scaled object.' }),
    selector: s.string({
      protobuf: 2,
      description:
        'selector is the label query over pods that should match the replicas count. This is same as the label selector but in the string format to avoid introspection by clients. The string will be in the same format as the query-param syntax. More info about label selectors: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/',
    }),
  },
});

export const ScaleSchema = defineObject({
  name: name('Scale'),
  description: 'Scale represents a scaling request for a resource.',
  fields: {
    apiVersion: s.string({ description: 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources' }),
    kind: s.string({ description: 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds' }),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: 'Standard object metadata; More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata.' }),
    // Go structs with omitempty are still written: spec and status always appear.
    spec: s.object(() => ScaleSpecSchema, { protobuf: 2, alwaysEmit: true, description: 'spec defines the behavior of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status.' }),
    status: s.object(() => ScaleStatusSchema, { protobuf: 3, alwaysEmit: true, description: 'status is the current status of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status. Read-only.' }),
  },
});

export type Scale = ObjectOf<typeof ScaleSchema>;

export const scaleKind = { group: autoscalingGroup, version: 'v1', kind: 'Scale' } as const;
