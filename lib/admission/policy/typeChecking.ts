// Type checking of a policy's expressions against the kinds it matches (upstream
// validating/typechecking.go), for the status controller: each validation expression and
// messageExpression is checked with `object`/`oldObject` typed from each matched kind's schema
// (at most 10 kinds, from resourceRules without wildcards), `params` from the paramKind's
// schema and `variables` from the variables' checked types. A failure becomes one
// ExpressionWarning per expression: "<group>/<version>, Kind=<kind>: <issue>\n" per kind.
import type { ValidatingAdmissionPolicy } from '../../api';
import { defineObject, s, type ObjectSchema } from '../../api/schema';
import { TypedChecker, type TypedVariable } from '../../cel';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** What the checker needs from the server: served kinds and their schemas (upstream's RESTMapper and SchemaResolver). */
export interface KindResolver {
  /** The kind served at group/version/resource, if any. */
  kindFor(group: string, version: string, resource: string): GroupVersionKind | undefined;
  schemaFor(gvk: GroupVersionKind): ObjectSchema | undefined;
}

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

const maxTypesToCheck = 10;

// The `request` variable's type: upstream's admission/v1 AdmissionRequest as policies see it.
const GroupVersionKindSchema = defineObject({ name: 'io.svc.admission.GroupVersionKind', fields: { group: s.string(), version: s.string(), kind: s.string() } });
const GroupVersionResourceSchema = defineObject({ name: 'io.svc.admission.GroupVersionResource', fields: { group: s.string(), version: s.string(), resource: s.string() } });
const UserInfoSchema = defineObject({
  name: 'io.svc.admission.UserInfo',
  fields: { username: s.string(), uid: s.string(), groups: s.array(s.string()), extra: s.map(s.array(s.string())) },
});
export const AdmissionRequestSchema = defineObject({
  name: 'io.svc.admission.AdmissionRequest',
  fields: {
    uid: s.string(),
    kind: s.object(() => GroupVersionKindSchema),
    resource: s.object(() => GroupVersionResourceSchema),
    subResource: s.string(),
    requestKind: s.object(() => GroupVersionKindSchema),
    requestResource: s.object(() => GroupVersionResourceSchema),
    requestSubResource: s.string(),
    name: s.string(),
    namespace: s.string(),
    operation: s.string(),
    userInfo: s.object(() => UserInfoSchema),
    object: { type: 'any' },
    oldObject: { type: 'any' },
    dryRun: s.boolean(),
    options: { type: 'any' },
  },
});

/** Go's GroupVersionKind.String(). */
export const gvkString = (g: GroupVersionKind): string => `${g.group}/${g.version}, Kind=${g.kind}`;

function withoutWildcards(xs: readonly string[] | undefined): string[] {
  const list = xs ?? [];
  return list.some((x) => x.includes('*')) ? [] : [...list].sort();
}

/** upstream's typesToCheck: the kinds named by resourceRules without wildcards, sorted, at most 10. */
export function typesToCheck(p: ValidatingAdmissionPolicy, r: KindResolver): GroupVersionKind[] {
  const found = new Map<string, GroupVersionKind>();
  let count = 0;
  for (const rule of p.spec?.matchConstraints?.resourceRules ?? []) {
    const groups = withoutWildcards(rule.apiGroups);
    const versions = withoutWildcards(rule.apiVersions);
    const resources = withoutWildcards(rule.resources);
    for (const g of groups) {
      for (const v of versions) {
        for (const res of resources) {
          const gvk = r.kindFor(g, v, res);
          if (!gvk) continue;
          found.set(gvkString(gvk), gvk);
          if (++count === maxTypesToCheck) return sorted(found);
        }
      }
    }
  }
  return sorted(found);
}

function sorted(m: Map<string, GroupVersionKind>): GroupVersionKind[] {
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
}

function paramsGVK(p: ValidatingAdmissionPolicy): GroupVersionKind | undefined {
  const k = p.spec?.paramKind;
  if (!k) return undefined;
  const av = k.apiVersion ?? '';
  const slash = av.indexOf('/');
  return { group: slash < 0 ? '' : av.slice(0, slash), version: slash < 0 ? av : av.slice(slash + 1), kind: k.kind ?? '' };
}

/** A checker for one matched kind, with the policy's variables declared from their checked types. */
function checkerFor(p: ValidatingAdmissionPolicy, schema: ObjectSchema, r: KindResolver): TypedChecker {
  const paramGVK = paramsGVK(p);
  const namespaceSchema = r.schemaFor({ group: '', version: 'v1', kind: 'Namespace' });
  const vars: TypedVariable[] = [
    { name: 'object', schema },
    { name: 'oldObject', schema },
    { name: 'request', schema: AdmissionRequestSchema },
    { name: 'namespaceObject', schema: namespaceSchema },
    { name: 'authorizer', type: 'kubernetes.authorization.Authorizer' },
  ];
  if (paramGVK) vars.push({ name: 'params', schema: r.schemaFor(paramGVK) });
  const checker = new TypedChecker(vars);
  // Each variable sees the ones before it; a failing one is dyn (upstream does not report it here).
  const fields: Record<string, string> = {};
  for (const v of p.spec?.variables ?? []) {
    const scoped = new TypedChecker(vars);
    scoped.declare('variables', scoped.declareObjectType(fields));
    const result = scoped.check(v.expression ?? '');
    fields[v.name ?? ''] = result.type ?? 'dyn';
  }
  checker.declare('variables', checker.declareObjectType(fields));
  return checker;
}

/** upstream's TypeChecker.Check. */
export function typeCheckPolicy(p: ValidatingAdmissionPolicy, r: KindResolver): ExpressionWarning[] {
  const kinds = typesToCheck(p, r).flatMap((gvk) => {
    const schema = r.schemaFor(gvk);
    return schema ? [{ gvk, checker: checkerFor(p, schema, r) }] : [];
  });
  if (kinds.length === 0) return [];
  const check = (expression: string): string | undefined => {
    const results = kinds.flatMap(({ gvk, checker }) => {
      const c = checker.check(expression);
      return c.issue === undefined ? [] : [`${gvkString(gvk)}: ${c.issue}\n`];
    });
    return results.length ? results.join('\n') : undefined;
  };
  const warnings: ExpressionWarning[] = [];
  (p.spec?.validations ?? []).forEach((v, i) => {
    const w = check(v.expression ?? '');
    if (w !== undefined) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: w });
    if (!v.messageExpression) return;
    const mw = check(v.messageExpression);
    if (mw !== undefined) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: mw });
  });
  return warnings;
}
