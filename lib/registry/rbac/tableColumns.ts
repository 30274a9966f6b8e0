// RBAC columns (upstream printers.go: printRole, printRoleBinding and their cluster forms).
// Roles show the creation time as RFC 3339; bindings show the role and, wide, their subjects.
import { ClusterRoleBindingSchema, RoleBindingSchema, type ApiObject, type ObjectSchema, type RoleBinding } from '../../api';
import { ageColumn, column, createdAtColumn, describe, nameColumn, type TableColumn } from '../tableColumns';

export const roleTableColumns: readonly TableColumn[] = [nameColumn, createdAtColumn];

type Subjects = NonNullable<RoleBinding['subjects']>;

/** rbac.SubjectsStrings: users, groups and "namespace/name" service accounts (other kinds are not shown). */
export function subjectsStrings(subjects: Subjects | undefined): { users: string[]; groups: string[]; serviceAccounts: string[] } {
  const out = { users: [] as string[], groups: [] as string[], serviceAccounts: [] as string[] };
  for (const s of subjects ?? []) {
    if (s.kind === 'ServiceAccount') out.serviceAccounts.push(`${s.namespace ?? ''}/${s.name ?? ''}`);
    else if (s.kind === 'User') out.users.push(s.name ?? '');
    else if (s.kind === 'Group') out.groups.push(s.name ?? '');
  }
  return out;
}

type Binding = ApiObject & Pick<RoleBinding, 'roleRef' | 'subjects'>;

function bindingColumns(schema: ObjectSchema, noun: string): readonly TableColumn<Binding>[] {
  const subjectsColumn = (name: string, pick: (s: ReturnType<typeof subjectsStrings>) => string[]): TableColumn<Binding> =>
    column<Binding>(name, `${name} in the ${noun}`, (o) => pick(subjectsStrings(o.subjects)).join(', '), { priority: 1 });
  return [
    nameColumn,
    column<Binding>('Role', describe(schema, ['roleRef']), (o) => `${o.roleRef?.kind ?? ''}/${o.roleRef?.name ?? ''}`),
    ageColumn,
    subjectsColumn('Users', (s) => s.users),
    subjectsColumn('Groups', (s) => s.groups),
    subjectsColumn('ServiceAccounts', (s) => s.serviceAccounts),
  ];
}

export const roleBindingTableColumns = bindingColumns(RoleBindingSchema, 'roleBinding');
export const clusterRoleBindingTableColumns = bindingColumns(ClusterRoleBindingSchema, 'clusterRoleBinding');
