// What to write so that a default role or binding exists with at least its default content
// (upstream pkg/registry/rbac/reconciliation, as the rbac/bootstrap-roles hook runs it: missing
// rules and subjects are added, nothing is removed). An existing object annotated
// autoupdate "false" is left alone. Pure: the caller does the writes and retries on conflicts.
import type { LabelSelector } from '../../api/meta';
import { rbacPolicyKeys } from '../../api/product';
import type { AggregationRule, ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject } from '../../api/rbac';
import { deepCopy } from '../../machinery/deepCopy';
import { deepEqual } from '../../machinery/deepEqual';
import { covers } from './covers';
import { semanticEqual } from './semanticEqual';

export interface RoleReconcileResult<T> {
  action: 'create' | 'update' | 'none';
  /** What to create or update with; the existing object when the action is 'none'. */
  object: T;
  /** The existing object opted out (autoupdate "false"); nothing is written. */
  protected: boolean;
  /** Default permissions the existing object lacked (broken down as the coverage check finds them). */
  missingRules: PolicyRule[];
}

export interface BindingReconcileResult<T> {
  /** 'recreate': delete the existing binding, then create `object` (roleRef is immutable). */
  action: 'create' | 'update' | 'recreate' | 'none';
  object: T;
  protected: boolean;
  missingSubjects: Subject[];
}

type Meta = { labels?: Record<string, string>; annotations?: Record<string, string> };

function isProtected(meta: Meta | undefined): boolean {
  return meta?.annotations?.[rbacPolicyKeys.autoupdateAnnotation] === 'false';
}

/** Later maps win; undefined when all are (upstream merge). */
function merge(...maps: (Record<string, string> | undefined)[]): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const m of maps) if (m) out = { ...out, ...m };
  return out;
}

/** Adds the desired labels and annotations the existing object lacks; its own values win. True if anything changed. */
function mergeMeta(target: { metadata?: Meta }, existing: Meta | undefined, desired: Meta | undefined): boolean {
  const meta = (target.metadata ??= {});
  const annotations = merge(desired?.annotations, existing?.annotations);
  const labels = merge(desired?.labels, existing?.labels);
  if (annotations) meta.annotations = annotations;
  if (labels) meta.labels = labels;
  return !deepEqual(annotations, existing?.annotations) || !deepEqual(labels, existing?.labels);
}

/** Selectors of `servant` that no selector of `owner` equals (upstream aggregationRuleCovers). */
function uncoveredSelectors(owner: AggregationRule | undefined, servant: AggregationRule | undefined): LabelSelector[] {
  if (!servant) return [];
  const owned = owner?.clusterRoleSelectors ?? [];
  return (servant.clusterRoleSelectors ?? []).filter((s) => !owned.some((o) => semanticEqual(o, s)));
}

/** Reconciles a Role or a ClusterRole (aggregation selectors only exist on ClusterRoles). */
export function reconcileRole<T extends Role | ClusterRole>(existing: T | undefined, desired: T): RoleReconcileResult<T> {
  if (!existing) return { action: 'create', object: deepCopy(desired), protected: false, missingRules: [...(desired.rules ?? [])] };

  const object = deepCopy(existing);
  let changed = mergeMeta(object, existing.metadata, desired.metadata);

  const missingRules = covers(existing.rules ?? [], desired.rules ?? []).uncovered;
  if (missingRules.length > 0) {
    object.rules = [...(object.rules ?? []), ...missingRules];
    changed = true;
  }

  const want = (desired as ClusterRole).aggregationRule;
  const have = (existing as ClusterRole).aggregationRule;
  if (!want && have) {
    // not expected to aggregate at all
    delete (object as ClusterRole).aggregationRule;
    changed = true;
  } else {
    const missingSelectors = uncoveredSelectors(have, want);
    if (missingSelectors.length > 0) {
      const rule = ((object as ClusterRole).aggregationRule ??= {});
      rule.clusterRoleSelectors = [...(rule.clusterRoleSelectors ?? []), ...missingSelectors];
      changed = true;
    }
  }

  if (isProtected(existing.metadata)) return { action: 'none', object: existing, protected: true, missingRules };
  return { action: changed ? 'update' : 'none', object: changed ? object : existing, protected: false, missingRules };
}

/** The brief's name for ClusterRoles. */
export function reconcileClusterRole(existing: ClusterRole | undefined, desired: ClusterRole): RoleReconcileResult<ClusterRole> {
  return reconcileRole(existing, desired);
}

function sameSubject(a: Subject, b: Subject): boolean {
  return (a.kind ?? '') === (b.kind ?? '') && (a.apiGroup ?? '') === (b.apiGroup ?? '') && (a.name ?? '') === (b.name ?? '') && (a.namespace ?? '') === (b.namespace ?? '');
}

function sameRoleRef(a: RoleRef | undefined, b: RoleRef | undefined): boolean {
  return (a?.apiGroup ?? '') === (b?.apiGroup ?? '') && (a?.kind ?? '') === (b?.kind ?? '') && (a?.name ?? '') === (b?.name ?? '');
}

/** Reconciles a RoleBinding or ClusterRoleBinding: add missing subjects; a different roleRef means recreate. */
export function reconcileRoleBinding<T extends RoleBinding | ClusterRoleBinding>(existing: T | undefined, desired: T): BindingReconcileResult<T> {
  if (!existing) return { action: 'create', object: deepCopy(desired), protected: false, missingSubjects: [...(desired.subjects ?? [])] };
  const prot = isProtected(existing.metadata);

  if (!sameRoleRef(existing.roleRef, desired.roleRef)) {
    return prot
      ? { action: 'none', object: existing, protected: true, missingSubjects: [] }
      : { action: 'recreate', object: deepCopy(desired), protected: false, missingSubjects: [...(desired.subjects ?? [])] };
  }

  const object = deepCopy(existing);
  let changed = mergeMeta(object, existing.metadata, desired.metadata);

  const have = existing.subjects ?? [];
  const missingSubjects: Subject[] = [];
  for (const s of desired.subjects ?? []) {
    if (!have.some((h) => sameSubject(h, s)) && !missingSubjects.some((m) => sameSubject(m, s))) missingSubjects.push(s);
  }
  if (missingSubjects.length > 0) {
    object.subjects = [...(object.subjects ?? []), ...missingSubjects];
    changed = true;
  }

  if (prot) return { action: 'none', object: existing, protected: true, missingSubjects };
  return { action: changed ? 'update' : 'none', object: changed ? object : existing, protected: false, missingSubjects };
}

/** The brief's name for ClusterRoleBindings. */
export function reconcileClusterRoleBinding(
  existing: ClusterRoleBinding | undefined,
  desired: ClusterRoleBinding,
): BindingReconcileResult<ClusterRoleBinding> {
  return reconcileRoleBinding(existing, desired);
}
