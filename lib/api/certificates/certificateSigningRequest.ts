import { listSchemaOf, ObjectMetaSchema } from '../meta';
import { groups, openapiDefinitionPrefix as P } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';

const name = (n: string): string => `${P.api}.certificates.v1.${n}`;

/** The usages a v1 CSR may request (spec §2.1), in upstream's sorted order. */
export const knownKeyUsages = [
  'any',
  'cert sign',
  'client auth',
  'code signing',
  'content commitment',
  'crl sign',
  'data encipherment',
  'decipher only',
  'digital signature',
  'email protection',
  'encipher only',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'key agreement',
  'key encipherment',
  'microsoft sgc',
  'netscape sgc',
  'ocsp signing',
  's/mime',
  'server auth',
  'signing',
  'timestamping',
] as const;

export const conditionTypes = { approved: 'Approved', denied: 'Denied', failed: 'Failed' } as const;

export const CertificateSigningRequestConditionSchema = defineObject({
  name: name('CertificateSigningRequestCondition'),
  description: 'CertificateSigningRequestCondition describes a condition of a CertificateSigningRequest object',
  fields: {
    type: s.string({ protobuf: 1, required: true, alwaysEmit: true, description: 'type of the condition. Known conditions are "Approved", "Denied", and "Failed".' }),
    status: s.string({ protobuf: 6, required: true, alwaysEmit: true, description: 'status of the condition, one of True, False, Unknown. Approved, Denied, and Failed conditions may not be "False" or "Unknown".' }),
    reason: s.string({ protobuf: 2, description: 'reason indicates a brief reason for the request state' }),
    message: s.string({ protobuf: 3, description: 'message contains a human readable message with details about the request state' }),
    lastUpdateTime: s.time({ protobuf: 4, description: 'lastUpdateTime is the time of the last update to this condition' }),
    lastTransitionTime: s.time({ protobuf: 5, description: 'lastTransitionTime is the time the condition last transitioned from one status to another. If unset, when a new condition type is added or an existing condition\'s status is changed, the server defaults this to the current time.' }),
  },
});

// The spec is restored by every update endpoint (the strategy, as upstream's PrepareForUpdate),
// so a change is dropped, never refused: no field is marked immutable. The requester fields are
// the server's: dropped when a client sends them, then filled from the caller on create.
export const CertificateSigningRequestSpecSchema = defineObject({
  name: name('CertificateSigningRequestSpec'),
  description: 'CertificateSigningRequestSpec contains the certificate request.',
  fields: {
    request: s.bytes({ protobuf: 1, required: true, alwaysEmit: true, description: 'request contains an x509 certificate signing request encoded in a "CERTIFICATE REQUEST" PEM block. When serialized as JSON or YAML, the data is additionally base64-encoded.' }),
    signerName: s.string({ protobuf: 7, required: true, alwaysEmit: true, description: 'signerName indicates the requested signer, and is a qualified name.' }),
    expirationSeconds: s.int32({ protobuf: 8, description: 'expirationSeconds is the requested duration of validity of the issued certificate. The minimum valid value for expirationSeconds is 600, i.e. 10 minutes.' }),
    usages: s.array(s.string({ enum: knownKeyUsages }), { protobuf: 5, listType: 'atomic', description: 'usages specifies a set of key usages requested in the issued certificate.' }),
    username: s.string({ protobuf: 2, serverSet: true, description: 'username contains the name of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.' }),
    uid: s.string({ protobuf: 3, serverSet: true, description: 'uid contains the uid of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.' }),
    groups: s.array(s.string(), { protobuf: 4, listType: 'atomic', serverSet: true, description: 'groups contains group membership of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.' }),
    extra: s.map(s.array(s.string()), { protobuf: 6, serverSet: true, description: 'extra contains extra attributes of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.' }),
  },
});

export const CertificateSigningRequestStatusSchema = defineObject({
  name: name('CertificateSigningRequestStatus'),
  description: 'CertificateSigningRequestStatus contains conditions used to indicate approved/denied/failed status of the request, and the issued certificate.',
  fields: {
    conditions: s.array(s.object(() => CertificateSigningRequestConditionSchema), {
      protobuf: 1,
      listType: 'map',
      listMapKeys: ['type'],
      description: 'conditions applied to the request. Known conditions are "Approved", "Denied", and "Failed".',
    }),
    certificate: s.bytes({ protobuf: 2, description: 'certificate is populated with an issued certificate by the signer after an Approved condition is present. This field is set via the /status subresource. Once populated, this field is immutable.' }),
  },
});

export const CertificateSigningRequestSchema = defineObject({
  name: name('CertificateSigningRequest'),
  description: 'CertificateSigningRequest objects provide a mechanism to obtain x509 certificates by submitting a certificate signing request, and having it asynchronously approved and issued.',
  fields: {
    apiVersion: s.string({ description: 'APIVersion defines the versioned schema of this representation of an object.' }),
    kind: s.string({ description: 'Kind is a string value representing the REST resource this object represents.' }),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true }),
    spec: s.object(() => CertificateSigningRequestSpecSchema, { protobuf: 2, required: true, alwaysEmit: true, description: 'spec contains the certificate request, and is immutable after creation. Only the request, signerName, expirationSeconds, and usages fields can be set on creation. Other fields are derived by the server.' }),
    status: s.object(() => CertificateSigningRequestStatusSchema, { protobuf: 3, alwaysEmit: true, description: 'status contains information about whether the request is approved or denied, and the certificate issued by the signer, or the failure condition indicating signer failure.' }),
  },
});

export const CertificateSigningRequestListSchema = listSchemaOf(CertificateSigningRequestSchema, 'CertificateSigningRequestList is a collection of CertificateSigningRequest objects', 'items is a collection of CertificateSigningRequest objects');

export type CertificateSigningRequest = ObjectOf<typeof CertificateSigningRequestSchema>;
export type CertificateSigningRequestCondition = ObjectOf<typeof CertificateSigningRequestConditionSchema>;

export const certificatesigningrequests: ResourceInfo = {
  group: groups.certificates,
  version: 'v1',
  kind: 'CertificateSigningRequest',
  listKind: 'CertificateSigningRequestList',
  resource: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  shortNames: ['csr'],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  schema: CertificateSigningRequestSchema,
  subresources: [
    { name: 'approval', verbs: ['get', 'patch', 'update'] },
    { name: 'status', verbs: ['get', 'patch', 'update'] },
  ],
};
