// Role (namespaced) and ClusterRole: sets of rules; a ClusterRole may aggregate others by label.
import { listSchemaOf, ObjectMetaSchema } from '../meta';
import { groups } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';
import { AggregationRuleSchema, PolicyRuleSchema, rbacDefinitionName } from './rules';

const crud = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;

export const RoleSchema = defineObject({
  name: rbacDefinitionName('Role'),
  description: 'Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.',
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "Standard object's metadata." }),
    rules: s.array(s.object(() => PolicyRuleSchema), { protobuf: 2, listType: 'atomic', description: 'Rules holds all the PolicyRules for this Role' }),
  },
});

export const ClusterRoleSchema = defineObject({
  name: rbacDefinitionName('ClusterRole'),
  description: 'ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.',
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "Standard object's metadata." }),
    rules: s.array(s.object(() => PolicyRuleSchema), { protobuf: 2, listType: 'atomic', description: 'Rules holds all the PolicyRules for this ClusterRole' }),
    aggregationRule: s.object(() => AggregationRuleSchema, { protobuf: 3, description: 'AggregationRule is an optional field that describes how to build the Rules for this ClusterRole. If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be stomped by the controller.' }),
  },
});

export const RoleListSchema = listSchemaOf(RoleSchema, 'RoleList is a collection of Roles', 'Items is a list of Roles');
export const ClusterRoleListSchema = listSchemaOf(ClusterRoleSchema, 'ClusterRoleList is a collection of ClusterRoles', 'Items is a list of ClusterRoles');

export type Role = ObjectOf<typeof RoleSchema>;
export type ClusterRole = ObjectOf<typeof ClusterRoleSchema>;

export const roles: ResourceInfo = {
  group: groups.rbac,
  version: 'v1',
  kind: 'Role',
  listKind: 'RoleList',
  resource: 'roles',
  singular: 'role',
  shortNames: [],
  namespaced: true,
  verbs: crud,
  schema: RoleSchema,
  subresources: [],
};

export const clusterroles: ResourceInfo = {
  group: groups.rbac,
  version: 'v1',
  kind: 'ClusterRole',
  listKind: 'ClusterRoleList',
  resource: 'clusterroles',
  singular: 'clusterrole',
  shortNames: [],
  namespaced: false,
  verbs: crud,
  schema: ClusterRoleSchema,
  subresources: [],
};
