// RBAC objects for e2e tests, written as manifests a user would apply, and a wait for the
// authorizer to see them (policy reaches it through the watch cache, not synchronously).
import { dump } from 'js-yaml';
import { type ApiServerProcess, eventually } from './apiserver';

export const rbacGroup = 'rbac.authorization.svc.io';
export const rbacApi = `/apis/${rbacGroup}/v1`;
const apiVersion = `${rbacGroup}/v1`;

export interface Rule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  apiGroup?: string;
  namespace?: string;
}

export type Manifest = Record<string, unknown> & { kind: string; metadata: { name: string; namespace?: string } };

export const user = (name: string): Subject => ({ kind: 'User', apiGroup: rbacGroup, name });
export const group = (name: string): Subject => ({ kind: 'Group', apiGroup: rbacGroup, name });
export const serviceAccount = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', namespace, name });

export function clusterRole(name: string, rules: Rule[]): Manifest {
  return { apiVersion, kind: 'ClusterRole', metadata: { name }, rules };
}

export function role(namespace: string, name: string, rules: Rule[]): Manifest {
  return { apiVersion, kind: 'Role', metadata: { name, namespace }, rules };
}

export function clusterRoleBinding(name: string, roleName: string, subjects: Subject[]): Manifest {
  return { apiVersion, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: roleName }, subjects };
}

export function roleBinding(namespace: string, name: string, roleRef: { kind: 'Role' | 'ClusterRole'; name: string }, subjects: Subject[]): Manifest {
  return { apiVersion, kind: 'RoleBinding', metadata: { name, namespace }, roleRef: { apiGroup: rbacGroup, ...roleRef }, subjects };
}

/** A ClusterRole and a ClusterRoleBinding of it to `subjects`, both named `name`. */
export function clusterGrant(name: string, rules: Rule[], subjects: Subject[]): Manifest[] {
  return [clusterRole(name, rules), clusterRoleBinding(name, name, subjects)];
}

/** The manifests as one multi-document YAML stream (what `kubectl create -f` reads). */
export function toYaml(manifests: readonly object[]): string {
  return manifests.map((m) => dump(m, { noRefs: true })).join('---\n');
}

/** `kubectl create -f -` as the admin; throws with kubectl's output unless every object was created. */
export async function kubectlCreate(server: ApiServerProcess, manifests: readonly object[]): Promise<void> {
  const r = await server.kubectl(['create', '-f', '-'], { input: toYaml(manifests) });
  if (r.code !== 0) throw new Error(`kubectl create failed (${r.code}):\n${r.stderr}${r.stdout}`);
}

/** What a SubjectAccessReview asks (spec.resourceAttributes or spec.nonResourceAttributes). */
export interface AccessQuestion {
  user: string;
  groups?: string[];
  verb: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** A non-resource path instead of a resource. */
  path?: string;
}

export function subjectAccessReview(q: AccessQuestion): Record<string, unknown> {
  const spec: Record<string, unknown> = { user: q.user };
  if (q.groups) spec.groups = q.groups;
  if (q.path !== undefined) spec.nonResourceAttributes = { verb: q.verb, path: q.path };
  else {
    spec.resourceAttributes = { verb: q.verb, group: q.group ?? '', resource: q.resource, subresource: q.subresource, namespace: q.namespace, name: q.name };
  }
  return { apiVersion: 'authorization.svc.io/v1', kind: 'SubjectAccessReview', spec };
}

export interface AccessAnswer {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

/** Asks the server's authorizer (as the admin) through a SubjectAccessReview. */
export async function askAccess(server: ApiServerProcess, q: AccessQuestion): Promise<AccessAnswer> {
  const r = await server.request('POST', '/apis/authorization.svc.io/v1/subjectaccessreviews', { body: subjectAccessReview(q) });
  if (r.status !== 201) throw new Error(`SubjectAccessReview: ${r.status} ${r.body}`);
  return r.json<{ status: AccessAnswer }>().status;
}

/** Polls until the authorizer's answer to each question is `allowed` (policy was just written). */
export async function awaitAccess(server: ApiServerProcess, questions: readonly AccessQuestion[], allowed = true): Promise<void> {
  for (const q of questions) {
    await eventually(async () => (await askAccess(server, q)).allowed === allowed, 10_000, `${q.user} ${q.verb} ${q.resource ?? q.path} → ${allowed}`);
  }
}
