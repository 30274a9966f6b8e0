// SelfSubjectRulesReview: "what may I do in this namespace?" — create only, nothing stored.
import { ObjectMetaSchema } from '../meta';
import { groups } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';
import { authorizationDefinitionName as name } from './attributes';

export const ResourceRuleSchema = defineObject({
  name: name('ResourceRule'),
  description: "ResourceRule is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.",
  fields: {
    verbs: s.array(s.string(), { protobuf: 1, required: true, alwaysEmit: true, listType: 'atomic', description: 'Verb is a list of kubernetes resource API verbs, like: get, list, watch, create, update, delete, proxy.  "*" means all.' }),
    apiGroups: s.array(s.string(), { protobuf: 2, listType: 'atomic', description: 'APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed.  "*" means all.' }),
    resources: s.array(s.string(), { protobuf: 3, listType: 'atomic', description: 'Resources is a list of resources this rule applies to.  "*" means all in the specified apiGroups.' }),
    resourceNames: s.array(s.string(), { protobuf: 4, listType: 'atomic', description: 'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.  "*" means all.' }),
  },
});

export const NonResourceRuleSchema = defineObject({
  name: name('NonResourceRule'),
  description: 'NonResourceRule holds information that describes a rule for the non-resource',
  fields: {
    verbs: s.array(s.string(), { protobuf: 1, required: true, alwaysEmit: true, listType: 'atomic', description: 'Verb is a list of kubernetes non-resource API verbs, like: get, post, put, delete, patch, head, options.  "*" means all.' }),
    nonResourceURLs: s.array(s.string(), { protobuf: 2, listType: 'atomic', description: 'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.  "*" means all.' }),
  },
});

export const SelfSubjectRulesReviewSpecSchema = defineObject({
  name: name('SelfSubjectRulesReviewSpec'),
  description: 'SelfSubjectRulesReviewSpec defines the specification for SelfSubjectRulesReview.',
  fields: {
    namespace: s.string({ protobuf: 1, description: 'Namespace to evaluate rules for. Required.' }),
  },
});

export const SubjectRulesReviewStatusSchema = defineObject({
  name: name('SubjectRulesReviewStatus'),
  description: "SubjectRulesReviewStatus contains the result of a rules check. This check can be incomplete depending on the set of authorizers the server is configured with and any errors experienced during evaluation. Because authorization rules are additive, if a rule appears in a list it's safe to assume the subject has that permission, even if that list is incomplete.",
  fields: {
    resourceRules: s.array(s.object(() => ResourceRuleSchema), { protobuf: 1, required: true, alwaysEmit: true, listType: 'atomic', description: "ResourceRules is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete." }),
    nonResourceRules: s.array(s.object(() => NonResourceRuleSchema), { protobuf: 2, required: true, alwaysEmit: true, listType: 'atomic', description: "NonResourceRules is the list of actions the subject is allowed to perform on non-resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete." }),
    incomplete: s.boolean({ protobuf: 3, required: true, alwaysEmit: true, description: "Incomplete is true when the rules returned by this call are incomplete. This is most commonly encountered when an authorizer, such as an external authorizer, doesn't support rules evaluation." }),
    evaluationError: s.string({ protobuf: 4, description: "EvaluationError can appear in combination with Rules. It indicates an error occurred during rule evaluation, such as an authorizer that doesn't support rule evaluation, and that ResourceRules and/or NonResourceRules may be incomplete." }),
  },
});

export const SelfSubjectRulesReviewSchema = defineObject({
  name: name('SelfSubjectRulesReview'),
  description: "SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace. The returned list of actions may be incomplete depending on the server's authorization mode, and any errors experienced during the evaluation.",
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "Standard object's metadata." }),
    spec: s.object(() => SelfSubjectRulesReviewSpecSchema, { protobuf: 2, required: true, alwaysEmit: true, description: 'Spec holds information about the request being evaluated.' }),
    status: s.object(() => SubjectRulesReviewStatusSchema, { protobuf: 3, alwaysEmit: true, description: 'Status is filled in by the server and indicates the set of actions a user can perform.' }),
  },
});

export type SelfSubjectRulesReview = ObjectOf<typeof SelfSubjectRulesReviewSchema>;
export type ResourceRule = ObjectOf<typeof ResourceRuleSchema>;
export type NonResourceRule = ObjectOf<typeof NonResourceRuleSchema>;

export const selfsubjectrulesreviews: ResourceInfo = {
  group: groups.authorization,
  version: 'v1',
  kind: 'SelfSubjectRulesReview',
  listKind: 'SelfSubjectRulesReviewList',
  resource: 'selfsubjectrulesreviews',
  singular: 'selfsubjectrulesreview',
  shortNames: [],
  namespaced: false,
  verbs: ['create'],
  schema: SelfSubjectRulesReviewSchema,
  subresources: [],
};
