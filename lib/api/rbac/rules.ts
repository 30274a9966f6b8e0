// The building blocks of RBAC objects: rules, subjects, role references, aggregation.
import { LabelSelectorSchema } from '../meta';
import { groups, openapiDefinitionPrefix as P } from '../product';
import { defineObject, ImmutableRule, ObjectOf, s } from '../schema';

export const rbacDefinitionName = (n: string): string => `${P.api}.rbac.v1.${n}`;

export const PolicyRuleSchema = defineObject({
  name: rbacDefinitionName('PolicyRule'),
  description:
    'PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.',
  fields: {
    verbs: s.array(s.string(), { protobuf: 1, required: true, alwaysEmit: true, listType: 'atomic', description: "Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs." }),
    apiGroups: s.array(s.string(), { protobuf: 2, listType: 'atomic', description: 'APIGroups is the name of the APIGroup that contains the resources. If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. "" represents the core API group and "*" represents all API groups.' }),
    resources: s.array(s.string(), { protobuf: 3, listType: 'atomic', description: "Resources is a list of resources this rule applies to. '*' represents all resources." }),
    resourceNames: s.array(s.string(), { protobuf: 4, listType: 'atomic', description: 'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.' }),
    nonResourceURLs: s.array(s.string(), { protobuf: 5, listType: 'atomic', description: 'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.' }),
  },
});

export const SubjectSchema = defineObject({
  name: rbacDefinitionName('Subject'),
  description: 'Subject contains a reference to the object or user identities a role binding applies to.  This can either hold a direct API object reference, or a value for non-objects such as user and group names.',
  fields: {
    kind: s.string({ protobuf: 1, required: true, alwaysEmit: true, description: 'Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount".' }),
    apiGroup: s.string({ protobuf: 2, description: `APIGroup holds the API group of the referenced subject. Defaults to "" for ServiceAccount subjects. Defaults to "${groups.rbac}" for User and Group subjects.` }),
    name: s.string({ protobuf: 3, required: true, alwaysEmit: true, description: 'Name of the object being referenced.' }),
    namespace: s.string({ protobuf: 4, description: 'Namespace of the referenced object.  If the object kind is non-namespace, such as "User" or "Group", and this value is not empty the Authorizer should report an error.' }),
  },
});

/** A binding's roleRef never changes; upstream refuses it in its own words, printing its internal RoleRef. */
export const roleRefImmutable: ImmutableRule = { detail: 'cannot change roleRef', goStruct: { apiGroup: 'APIGroup', kind: 'Kind', name: 'Name' } };

export const RoleRefSchema = defineObject({
  name: rbacDefinitionName('RoleRef'),
  description: 'RoleRef contains information that points to the role being used',
  fields: {
    apiGroup: s.string({ protobuf: 1, required: true, alwaysEmit: true, description: 'APIGroup is the group for the resource being referenced' }),
    kind: s.string({ protobuf: 2, required: true, alwaysEmit: true, description: 'Kind is the type of resource being referenced' }),
    name: s.string({ protobuf: 3, required: true, alwaysEmit: true, description: 'Name is the name of resource being referenced' }),
  },
});

export const AggregationRuleSchema = defineObject({
  name: rbacDefinitionName('AggregationRule'),
  description: 'AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole',
  fields: {
    clusterRoleSelectors: s.array(s.object(() => LabelSelectorSchema), { protobuf: 1, listType: 'atomic', description: "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added" }),
  },
});

export type PolicyRule = ObjectOf<typeof PolicyRuleSchema>;
export type Subject = ObjectOf<typeof SubjectSchema>;
export type RoleRef = ObjectOf<typeof RoleRefSchema>;
export type AggregationRule = ObjectOf<typeof AggregationRuleSchema>;
