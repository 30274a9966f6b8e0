// ValidatingAdmissionPolicy (admissionregistration.svc.io/v1, also served as v1beta1, off by
// default): CEL validations run by admission on the requests its matchConstraints select.
// Field numbers from upstream k8s.io/api admissionregistration/v1 generated.proto.
import { listSchemaOf, ObjectMetaSchema } from '../meta';
import { groups, openapiDefinitionPrefix } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';
import { admissionregistrationName as name, MatchResourcesSchema } from './matchResources';

export const failurePolicies = ['Fail', 'Ignore'] as const;
/** Upstream's supportedValidationPolicyReason (validation.go). */
export const validationReasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'] as const;

export const ParamKindSchema = defineObject({
  name: name('ParamKind'),
  description: 'ParamKind is a tuple of Group Kind and Version.',
  fields: {
    apiVersion: s.string({ protobuf: 1, description: 'APIVersion is the API group version the resources belong to. In format of "group/version". Required.' }),
    kind: s.string({ protobuf: 2, description: 'Kind is the API kind the resources belong to. Required.' }),
  },
});

export const ValidationSchema = defineObject({
  name: name('Validation'),
  description: 'Validation specifies the CEL expression which is used to apply the validation.',
  fields: {
    expression: s.string({ protobuf: 1, required: true, alwaysEmit: true, description: 'Expression represents the expression which will be evaluated by CEL. Required.' }),
    message: s.string({ protobuf: 2, description: 'Message represents the message displayed when validation fails.' }),
    reason: s.string({ protobuf: 3, description: 'Reason represents a machine-readable description of why this validation failed. Defaults to Invalid.' }),
    messageExpression: s.string({ protobuf: 4, description: 'messageExpression declares a CEL expression that evaluates to the validation failure message that is returned when this rule fails.' }),
  },
});

export const AuditAnnotationSchema = defineObject({
  name: name('AuditAnnotation'),
  description: 'AuditAnnotation describes how to produce an audit annotation for an API request.',
  fields: {
    key: s.string({ protobuf: 1, required: true, alwaysEmit: true, description: 'key specifies the audit annotation key.' }),
    valueExpression: s.string({ protobuf: 2, required: true, alwaysEmit: true, description: 'valueExpression represents the expression which is evaluated by CEL to produce an audit annotation value.' }),
  },
});

export const MatchConditionSchema = defineObject({
  name: name('MatchCondition'),
  description: 'MatchCondition represents a condition which must by fulfilled for a request to be sent to a webhook.',
  fields: {
    name: s.string({ protobuf: 1, required: true, alwaysEmit: true, description: 'Name is an identifier for this match condition. Required.' }),
    expression: s.string({ protobuf: 2, required: true, alwaysEmit: true, description: 'Expression represents the expression which will be evaluated by CEL. Must evaluate to bool. Required.' }),
  },
});

export const VariableSchema = defineObject({
  name: name('Variable'),
  description: 'Variable is the definition of a variable that is used for composition.',
  fields: {
    name: s.string({ protobuf: 1, required: true, alwaysEmit: true, description: 'Name is the name of the variable. The name must be a valid CEL identifier and unique among all variables.' }),
    expression: s.string({ protobuf: 2, required: true, alwaysEmit: true, description: 'Expression is the expression that will be evaluated as the value of the variable.' }),
  },
});

export const ValidatingAdmissionPolicySpecSchema = defineObject({
  name: name('ValidatingAdmissionPolicySpec'),
  description: 'ValidatingAdmissionPolicySpec is the specification of the desired behavior of the AdmissionPolicy.',
  fields: {
    paramKind: s.object(() => ParamKindSchema, { protobuf: 1, description: 'ParamKind specifies the kind of resources used to parameterize this policy.' }),
    matchConstraints: s.object(() => MatchResourcesSchema, { protobuf: 2, description: 'MatchConstraints specifies what resources this policy is designed to validate. Required.' }),
    validations: s.array(s.object(() => ValidationSchema), { protobuf: 3, listType: 'atomic', description: 'Validations contain CEL expressions which is used to apply the validation.' }),
    failurePolicy: s.string({ protobuf: 4, enum: failurePolicies, description: 'failurePolicy defines how to handle failures for the admission policy. Allowed values are Ignore or Fail. Defaults to Fail.' }),
    auditAnnotations: s.array(s.object(() => AuditAnnotationSchema), { protobuf: 5, listType: 'atomic', description: 'auditAnnotations contains CEL expressions which are used to produce audit annotations for the audit event of the API request.' }),
    matchConditions: s.array(s.object(() => MatchConditionSchema), { protobuf: 6, listType: 'map', listMapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name', description: 'MatchConditions is a list of conditions that must be met for a request to be validated.' }),
    variables: s.array(s.object(() => VariableSchema), { protobuf: 7, listType: 'atomic', description: 'Variables contain definitions of variables that can be used in composition of other expressions.' }),
  },
});

export const ExpressionWarningSchema = defineObject({
  name: name('ExpressionWarning'),
  description: 'ExpressionWarning is a warning information that targets a specific expression.',
  fields: {
    fieldRef: s.string({ protobuf: 2, required: true, alwaysEmit: true, description: 'The path to the field that refers the expression.' }),
    warning: s.string({ protobuf: 3, required: true, alwaysEmit: true, description: 'The content of type checking information in a human-readable form.' }),
  },
});

export const TypeCheckingSchema = defineObject({
  name: name('TypeChecking'),
  description: 'TypeChecking contains results of type checking the expressions in the ValidatingAdmissionPolicy',
  fields: {
    expressionWarnings: s.array(s.object(() => ExpressionWarningSchema), { protobuf: 1, listType: 'atomic', description: 'The type checking warnings for each expression.' }),
  },
});

export const ConditionSchema = defineObject({
  name: `${openapiDefinitionPrefix.meta}.Condition`,
  description: 'Condition contains details for one aspect of the current state of this API Resource.',
  fields: {
    type: s.string({ protobuf: 1, required: true, alwaysEmit: true, description: 'type of condition in CamelCase or in foo.example.com/CamelCase.' }),
    status: s.string({ protobuf: 2, required: true, alwaysEmit: true, description: 'status of the condition, one of True, False, Unknown.' }),
    observedGeneration: s.int64({ protobuf: 3, description: 'observedGeneration represents the .metadata.generation that the condition was set based upon.' }),
    lastTransitionTime: s.time({ protobuf: 4, required: true, alwaysEmit: true, description: 'lastTransitionTime is the last time the condition transitioned from one status to another.' }),
    reason: s.string({ protobuf: 5, required: true, alwaysEmit: true, description: "reason contains a programmatic identifier indicating the reason for the condition's last transition." }),
    message: s.string({ protobuf: 6, required: true, alwaysEmit: true, description: 'message is a human readable message indicating details about the transition.' }),
  },
});

export const ValidatingAdmissionPolicyStatusSchema = defineObject({
  name: name('ValidatingAdmissionPolicyStatus'),
  description: 'ValidatingAdmissionPolicyStatus represents the status of an admission validation policy.',
  fields: {
    observedGeneration: s.int64({ protobuf: 1, description: 'The generation observed by the controller.' }),
    typeChecking: s.object(() => TypeCheckingSchema, { protobuf: 2, description: 'The results of type checking for each expression.' }),
    conditions: s.array(s.object(() => ConditionSchema), { protobuf: 3, listType: 'map', listMapKeys: ['type'], description: "The conditions represent the latest available observations of a policy's current state." }),
  },
});

export const ValidatingAdmissionPolicySchema = defineObject({
  name: name('ValidatingAdmissionPolicy'),
  description: 'ValidatingAdmissionPolicy describes the definition of an admission validation policy that accepts or rejects an object without changing it.',
  fields: {
    apiVersion: s.string({ description: 'APIVersion defines the versioned schema of this representation of an object.' }),
    kind: s.string({ description: 'Kind is a string value representing the REST resource this object represents.' }),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "Standard object metadata." }),
    spec: s.object(() => ValidatingAdmissionPolicySpecSchema, { protobuf: 2, description: 'Specification of the desired behavior of the ValidatingAdmissionPolicy.' }),
    status: s.object(() => ValidatingAdmissionPolicyStatusSchema, { protobuf: 3, description: 'The status of the ValidatingAdmissionPolicy, including warnings that are useful to determine if the policy behaves in the expected way.' }),
  },
});

export const ValidatingAdmissionPolicyListSchema = listSchemaOf(ValidatingAdmissionPolicySchema, 'ValidatingAdmissionPolicyList is a list of ValidatingAdmissionPolicy.', 'List of ValidatingAdmissionPolicy.');

export type ValidatingAdmissionPolicy = ObjectOf<typeof ValidatingAdmissionPolicySchema>;
export type ValidatingAdmissionPolicySpec = ObjectOf<typeof ValidatingAdmissionPolicySpecSchema>;
export type ValidatingAdmissionPolicyStatus = ObjectOf<typeof ValidatingAdmissionPolicyStatusSchema>;
export type PolicyValidation = ObjectOf<typeof ValidationSchema>;

export const validatingadmissionpolicies: ResourceInfo = {
  group: groups.admissionregistration,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicy',
  listKind: 'ValidatingAdmissionPolicyList',
  resource: 'validatingadmissionpolicies',
  singular: 'validatingadmissionpolicy',
  shortNames: [],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  schema: ValidatingAdmissionPolicySchema,
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
};

/** The same kind and schema as v1beta1 (beta since 1.28: deprecated 1.31, removed 1.34 by default). */
export const validatingadmissionpoliciesV1beta1: ResourceInfo = {
  ...validatingadmissionpolicies,
  version: 'v1beta1',
  storageVersion: 'v1',
  lifecycle: { introduced: { major: 1, minor: 28 }, replacement: { group: groups.admissionregistration, version: 'v1', kind: 'ValidatingAdmissionPolicy' } },
};

