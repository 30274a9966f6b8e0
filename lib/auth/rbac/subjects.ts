// Which binding subjects a user is, and how a subject is named in reasons
// (upstream pkg/registry/rbac/validation/rule.go: appliesTo, describeSubject).
import type { Subject } from '../../api/rbac';
import { goQuote } from '../../machinery/goStrconv';
import { serviceAccountUsername } from '../serviceaccount/identity';
import type { UserInfo } from '../user';

export const subjectKinds = { user: 'User', group: 'Group', serviceAccount: 'ServiceAccount' } as const;

/**
 * Does the subject denote the user? A ServiceAccount subject without a namespace means the
 * binding's namespace; with neither (a ClusterRoleBinding), it matches nobody.
 */
export function appliesToUser(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  const name = subject.name ?? '';
  switch (subject.kind) {
    case subjectKinds.user:
      return user.name === name;
    case subjectKinds.group:
      return user.groups.includes(name);
    case subjectKinds.serviceAccount: {
      const ns = subject.namespace || bindingNamespace;
      if (!ns) return false;
      return isServiceAccountUser(user.name, ns, name);
    }
    default:
      return false;
  }
}

// `system:serviceaccount:`: the user name of ServiceAccount ns/name is this, ns, ':' and name.
const saPrefix = serviceAccountUsername('', '').slice(0, -1);

/**
 * username === serviceAccountUsername(namespace, name), compared in place: this runs for every
 * ServiceAccount subject of every binding on every request, so it builds no string.
 */
export function isServiceAccountUser(username: string, namespace: string, name: string): boolean {
  const p = saPrefix.length;
  return (
    username.length === p + namespace.length + 1 + name.length &&
    username.startsWith(saPrefix) &&
    username.startsWith(namespace, p) &&
    username.charCodeAt(p + namespace.length) === 58 /* ':' */ &&
    username.endsWith(name)
  );
}

/** Index of the first subject that denotes the user, or -1. */
export function firstApplyingSubject(user: UserInfo, subjects: readonly Subject[] | undefined, bindingNamespace: string): number {
  if (!subjects) return -1;
  for (let i = 0; i < subjects.length; i++) if (appliesToUser(user, subjects[i], bindingNamespace)) return i;
  return -1;
}

/** `User "alice"`, `Group "ops"`, `ServiceAccount "name/namespace"` (name first, as upstream prints it). */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  const kind = subject.kind ?? '';
  const name = subject.name ?? '';
  if (kind === subjectKinds.serviceAccount) return `${kind} ${goQuote(`${name}/${subject.namespace || bindingNamespace}`)}`;
  return `${kind} ${goQuote(name)}`;
}
