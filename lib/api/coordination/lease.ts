// Lease (coordination.svc.io/v1): the lock controllers hold for leader election.
import { listSchemaOf, ObjectMetaSchema } from '../meta';
import { groups, openapiDefinitionPrefix as P } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';

const name = (n: string): string => `${P.api}.coordination.v1.${n}`;

export const LeaseSpecSchema = defineObject({
  name: name('LeaseSpec'),
  description: 'LeaseSpec is a specification of a Lease.',
  fields: {
    holderIdentity: s.string({ protobuf: 1, description: 'holderIdentity contains the identity of the holder of a current lease.' }),
    leaseDurationSeconds: s.int32({ protobuf: 2, description: 'leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.' }),
    acquireTime: s.microTime({ protobuf: 3, description: 'acquireTime is a time when the current lease was acquired.' }),
    renewTime: s.microTime({ protobuf: 4, description: 'renewTime is a time when the current holder of a lease has last updated the lease.' }),
    leaseTransitions: s.int32({ protobuf: 5, description: 'leaseTransitions is the number of transitions of a lease between holders.' }),
    strategy: s.string({ protobuf: 6, description: 'Strategy indicates the strategy for picking the leader for coordinated leader election.' }),
    preferredHolder: s.string({ protobuf: 7, description: 'PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up.' }),
  },
});

export const LeaseSchema = defineObject({
  name: name('Lease'),
  description: 'Lease defines a lease concept.',
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata" }),
    spec: s.object(() => LeaseSpecSchema, { protobuf: 2, description: 'spec contains the specification of the Lease.' }),
  },
});

export const LeaseListSchema = listSchemaOf(LeaseSchema, 'LeaseList is a list of Lease objects.', 'items is a list of schema objects.');

export type Lease = ObjectOf<typeof LeaseSchema>;
export type LeaseSpec = ObjectOf<typeof LeaseSpecSchema>;

export const leases: ResourceInfo = {
  group: groups.coordination,
  version: 'v1',
  kind: 'Lease',
  listKind: 'LeaseList',
  resource: 'leases',
  singular: 'lease',
  shortNames: [],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  schema: LeaseSchema,
  subresources: [],
};
