// RoleBinding (namespaced) and ClusterRoleBinding: grant a role's rules to subjects.
import { listSchemaOf, ObjectMetaSchema } from '../meta';
import { groups } from '../product';
import type { ResourceInfo } from '../resource';
import { defineObject, ObjectOf, s } from '../schema';
import { rbacDefinitionName, roleRefImmutable, RoleRefSchema, SubjectSchema } from './rules';

const crud = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;

export const RoleBindingSchema = defineObject({
  name: rbacDefinitionName('RoleBinding'),
  description:
    'RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace. It adds who information via Subjects and namespace information by which namespace it exists in.  RoleBindings in a given namespace only have effect in that namespace.',
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "Standard object's metadata." }),
    subjects: s.array(s.object(() => SubjectSchema), { protobuf: 2, listType: 'atomic', description: 'Subjects holds references to the objects the role applies to.' }),
    roleRef: s.object(() => RoleRefSchema, { protobuf: 3, required: true, alwaysEmit: true, immutable: roleRefImmutable, description: 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.' }),
  },
});

export const ClusterRoleBindingSchema = defineObject({
  name: rbacDefinitionName('ClusterRoleBinding'),
  description: 'ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.',
  fields: {
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "Standard object's metadata." }),
    subjects: s.array(s.object(() => SubjectSchema), { protobuf: 2, listType: 'atomic', description: 'Subjects holds references to the objects the role applies to.' }),
    roleRef: s.object(() => RoleRefSchema, { protobuf: 3, required: true, alwaysEmit: true, immutable: roleRefImmutable, description: 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.' }),
  },
});

export const RoleBindingListSchema = listSchemaOf(RoleBindingSchema, 'RoleBindingList is a collection of RoleBindings', 'Items is a list of RoleBindings');
export const ClusterRoleBindingListSchema = listSchemaOf(ClusterRoleBindingSchema, 'ClusterRoleBindingList is a collection of ClusterRoleBindings', 'Items is a list of ClusterRoleBindings');

export type RoleBinding = ObjectOf<typeof RoleBindingSchema>;
export type ClusterRoleBinding = ObjectOf<typeof ClusterRoleBindingSchema>;

export const rolebindings: ResourceInfo = {
  group: groups.rbac,
  version: 'v1',
  kind: 'RoleBinding',
  listKind: 'RoleBindingList',
  resource: 'rolebindings',
  singular: 'rolebinding',
  shortNames: [],
  namespaced: true,
  verbs: crud,
  schema: RoleBindingSchema,
  subresources: [],
};

export const clusterrolebindings: ResourceInfo = {
  group: groups.rbac,
  version: 'v1',
  kind: 'ClusterRoleBinding',
  listKind: 'ClusterRoleBindingList',
  resource: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  shortNames: [],
  namespaced: false,
  verbs: crud,
  schema: ClusterRoleBindingSchema,
  subresources: [],
};
