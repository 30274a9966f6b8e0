// ValidatingAdmissionPolicyBinding (admissionregistration.svc.io/v1, also v1beta1 off by
// default): binds a policy to resources, a parameter and the actions taken on failure.
// Field numbers from upstream k8s.io/api admissionregistration/v1 generated.proto.
import { LabelSelectorSchema, listSchemaOf, ObjectMetaSchema } from '../meta';
import { groups } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';
import { admissionregistrationName as name, MatchResourcesSchema } from './matchResources';

export const validationActions = ['Deny', 'Warn', 'Audit'] as const;
export const parameterNotFoundActions = ['Allow', 'Deny'] as const;

export const ParamRefSchema = defineObject({
  name: name('ParamRef'),
  description: 'ParamRef describes how to locate the params to be used as input to expressions of rules applied by a policy binding.',
  fields: {
    name: s.string({ protobuf: 1, description: 'name is the name of the resource being referenced.' }),
    namespace: s.string({ protobuf: 2, description: 'namespace is the namespace of the referenced resource.' }),
    selector: s.object(() => LabelSelectorSchema, { protobuf: 3, description: 'selector can be used to match multiple param objects based on their labels.' }),
    parameterNotFoundAction: s.string({ protobuf: 4, enum: parameterNotFoundActions, description: 'parameterNotFoundAction controls the behavior of the binding when the resource exists, and name or selector is valid, but there are no parameters matched by the binding. Allowed values are `Allow` or `Deny`.' }),
  },
});

export const ValidatingAdmissionPolicyBindingSpecSchema = defineObject({
  name: name('ValidatingAdmissionPolicyBindingSpec'),
  description: 'ValidatingAdmissionPolicyBindingSpec is the specification of the ValidatingAdmissionPolicyBinding.',
  fields: {
    policyName: s.string({ protobuf: 1, description: 'PolicyName references a ValidatingAdmissionPolicy name which the ValidatingAdmissionPolicyBinding binds to. Required.' }),
    paramRef: s.object(() => ParamRefSchema, { protobuf: 2, description: 'paramRef specifies the parameter resource used to configure the admission control policy.' }),
    matchResources: s.object(() => MatchResourcesSchema, { protobuf: 3, description: 'MatchResources declares what resources match this binding and will be validated by it.' }),
    validationActions: s.array(s.string({ enum: validationActions }), { protobuf: 4, listType: 'set', description: 'validationActions declares how Validations of the referenced ValidatingAdmissionPolicy are enforced. Required.' }),
  },
});

export const ValidatingAdmissionPolicyBindingSchema = defineObject({
  name: name('ValidatingAdmissionPolicyBinding'),
  description: 'ValidatingAdmissionPolicyBinding binds the ValidatingAdmissionPolicy with paramerized resources.',
  fields: {
    apiVersion: s.string({ description: 'APIVersion defines the versioned schema of this representation of an object.' }),
    kind: s.string({ description: 'Kind is a string value representing the REST resource this object represents.' }),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: 'Standard object metadata.' }),
    spec: s.object(() => ValidatingAdmissionPolicyBindingSpecSchema, { protobuf: 2, description: 'Specification of the desired behavior of the ValidatingAdmissionPolicyBinding.' }),
  },
});

export const ValidatingAdmissionPolicyBindingListSchema = listSchemaOf(
  ValidatingAdmissionPolicyBindingSchema,
  'ValidatingAdmissionPolicyBindingList is a list of ValidatingAdmissionPolicyBinding.',
  'List of PolicyBinding.',
);

export type ValidatingAdmissionPolicyBinding = ObjectOf<typeof ValidatingAdmissionPolicyBindingSchema>;
export type ParamRef = ObjectOf<typeof ParamRefSchema>;

export const validatingadmissionpolicybindings: ResourceInfo = {
  group: groups.admissionregistration,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  listKind: 'ValidatingAdmissionPolicyBindingList',
  resource: 'validatingadmissionpolicybindings',
  singular: 'validatingadmissionpolicybinding',
  shortNames: [],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  schema: ValidatingAdmissionPolicyBindingSchema,
  subresources: [],
};

/** The same kind and schema as v1beta1 (beta since 1.28: deprecated 1.31, removed 1.34 by default). */
export const validatingadmissionpolicybindingsV1beta1: ResourceInfo = {
  ...validatingadmissionpolicybindings,
  version: 'v1beta1',
  storageVersion: 'v1',
  lifecycle: { introduced: { major: 1, minor: 28 }, replacement: { group: groups.admissionregistration, version: 'v1', kind: 'ValidatingAdmissionPolicyBinding' } },
};
