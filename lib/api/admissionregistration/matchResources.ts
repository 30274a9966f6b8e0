// Shared admissionregistration types (k8s.io/api admissionregistration/v1): which requests a
// policy or binding selects. Field numbers from upstream's generated.proto. NamedRuleWithOperations
// embeds RuleWithOperations (and that embeds Rule) inline: flat in JSON, nested messages in Protobuf.
import { LabelSelectorSchema } from '../meta';
import { openapiDefinitionPrefix as P } from '../product';
import { defineObject, inlineFields, ObjectOf, s } from '../schema';

export const admissionregistrationName = (n: string): string => `${P.api}.admissionregistration.v1.${n}`;

export const operationTypes = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const;
export const ruleScopes = ['Cluster', 'Namespaced', '*'] as const;
export const matchPolicies = ['Exact', 'Equivalent'] as const;

/** admissionregistration/v1 Rule (embedded inline in RuleWithOperations). */
export const RuleSchema = defineObject({
  name: admissionregistrationName('Rule'),
  description: 'Rule is a tuple of APIGroups, APIVersion, and Resources.It is recommended to make sure that all the tuple expansions are valid.',
  fields: {
    apiGroups: s.array(s.string(), { protobuf: 1, listType: 'atomic', description: "APIGroups is the API groups the resources belong to. '*' is all groups. If '*' is present, the length of the slice must be one. Required." }),
    apiVersions: s.array(s.string(), { protobuf: 2, listType: 'atomic', description: "APIVersions is the API versions the resources belong to. '*' is all versions. If '*' is present, the length of the slice must be one. Required." }),
    resources: s.array(s.string(), { protobuf: 3, listType: 'atomic', description: "Resources is a list of resources this rule applies to. '*' means all resources; 'pods/*' means all subresources of pods; '*/*' means all resources and their subresources." }),
    scope: s.string({ protobuf: 4, enum: ruleScopes, description: 'scope specifies the scope of this rule. Valid values are "Cluster", "Namespaced", and "*". Default is "*".' }),
  },
});

/** admissionregistration/v1 RuleWithOperations (embedded inline in NamedRuleWithOperations). */
export const RuleWithOperationsSchema = defineObject({
  name: admissionregistrationName('RuleWithOperations'),
  description: 'RuleWithOperations is a tuple of Operations and Resources. It is recommended to make sure that all the tuple expansions are valid.',
  fields: {
    operations: s.array(s.string({ enum: operationTypes }), { protobuf: 1, listType: 'atomic', description: "Operations is the operations the admission hook cares about - CREATE, UPDATE, DELETE, CONNECT or * for all of those operations and any future admission operations that are added. If '*' is present, the length of the slice must be one. Required." }),
    ...inlineFields(RuleSchema),
  },
  protobufEmbedded: [{ protobuf: 2, schema: () => RuleSchema }],
});

export const NamedRuleWithOperationsSchema = defineObject({
  name: admissionregistrationName('NamedRuleWithOperations'),
  description: 'NamedRuleWithOperations is a tuple of Operations and Resources with ResourceNames.',
  fields: {
    resourceNames: s.array(s.string(), { protobuf: 1, listType: 'atomic', description: 'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.' }),
    ...inlineFields(RuleWithOperationsSchema),
  },
  protobufEmbedded: [{ protobuf: 2, schema: () => RuleWithOperationsSchema }],
});

export const MatchResourcesSchema = defineObject({
  name: admissionregistrationName('MatchResources'),
  description: 'MatchResources decides whether to run the admission control policy on an object based on whether it meets the match criteria.',
  fields: {
    namespaceSelector: s.object(() => LabelSelectorSchema, { protobuf: 1, description: 'NamespaceSelector decides whether to run the admission control policy on an object based on whether the namespace for that object matches the selector. Default to the empty LabelSelector, which matches everything.' }),
    objectSelector: s.object(() => LabelSelectorSchema, { protobuf: 2, description: 'ObjectSelector decides whether to run the validation based on if the object has matching labels. Default to the empty LabelSelector, which matches everything.' }),
    resourceRules: s.array(s.object(() => NamedRuleWithOperationsSchema), { protobuf: 3, listType: 'atomic', description: 'ResourceRules describes what operations on what resources/subresources the ValidatingAdmissionPolicy matches.' }),
    excludeResourceRules: s.array(s.object(() => NamedRuleWithOperationsSchema), { protobuf: 4, listType: 'atomic', description: 'ExcludeResourceRules describes what operations on what resources/subresources the ValidatingAdmissionPolicy should not care about. The exclude rules take precedence over include rules.' }),
    matchPolicy: s.string({ protobuf: 7, enum: matchPolicies, description: 'matchPolicy defines how the "MatchResources" list is used to match incoming requests. Allowed values are "Exact" or "Equivalent". Defaults to "Equivalent".' }),
  },
});

export type NamedRuleWithOperations = ObjectOf<typeof NamedRuleWithOperationsSchema>;
export type MatchResources = ObjectOf<typeof MatchResourcesSchema>;
