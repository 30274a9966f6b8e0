// The in-memory set of policies (compiled once per resourceVersion) and their bindings, fed by
// the server's followers of the two stores, so a change applies on the next request of every
// replica without reading etcd. hooks() is rebuilt only after a change.
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../api';
import { compilePolicy, type CompiledPolicy } from './compiled';

export interface PolicyHook {
  policy: CompiledPolicy;
  bindings: readonly ValidatingAdmissionPolicyBinding[];
}

const nameOf = (o: { metadata?: { name?: string } }): string => o.metadata?.name ?? '';

export class PolicySet {
  private readonly policies = new Map<string, CompiledPolicy>();
  private readonly bindings = new Map<string, ValidatingAdmissionPolicyBinding>();
  private cached?: PolicyHook[];
  /** hooks() narrowed per group/resource by the policies' resourceRules (rebuilt after a change). */
  private byResource = new Map<string, readonly PolicyHook[]>();

  replacePolicies(all: readonly ValidatingAdmissionPolicy[]): void {
    const keep = new Set(all.map(nameOf));
    for (const name of [...this.policies.keys()]) if (!keep.has(name)) this.policies.delete(name);
    for (const p of all) this.upsertPolicy(p);
    this.cached = undefined;
  }

  upsertPolicy(p: ValidatingAdmissionPolicy): void {
    const prev = this.policies.get(nameOf(p));
    if (prev && prev.policy.metadata?.resourceVersion === p.metadata?.resourceVersion && p.metadata?.resourceVersion) return;
    this.policies.set(nameOf(p), compilePolicy(p));
    this.cached = undefined;
  }

  removePolicy(p: ValidatingAdmissionPolicy): void {
    this.policies.delete(nameOf(p));
    this.cached = undefined;
  }

  replaceBindings(all: readonly ValidatingAdmissionPolicyBinding[]): void {
    this.bindings.clear();
    for (const b of all) this.bindings.set(nameOf(b), b);
    this.cached = undefined;
  }

  upsertBinding(b: ValidatingAdmissionPolicyBinding): void {
    this.bindings.set(nameOf(b), b);
    this.cached = undefined;
  }

  removeBinding(b: ValidatingAdmissionPolicyBinding): void {
    this.bindings.delete(nameOf(b));
    this.cached = undefined;
  }

  /**
   * The hooks whose matchConstraints can select this group/resource (any of its subresources
   * too), so a request walks only the policies written for it. Matching proper stays in
   * matchResourcesMatch.
   */
  hooksFor(group: string, resource: string): readonly PolicyHook[] {
    const all = this.hooks();
    const key = `${group}/${resource}`;
    let hs = this.byResource.get(key);
    if (!hs) {
      hs = all.filter((h) => mayMatch(h.policy, group, resource));
      this.byResource.set(key, hs);
    }
    return hs;
  }

  /** Policies that have at least one binding, in name order, with their bindings in name order. */
  hooks(): readonly PolicyHook[] {
    if (this.cached) return this.cached;
    this.byResource = new Map();
    const byPolicy = new Map<string, ValidatingAdmissionPolicyBinding[]>();
    for (const b of [...this.bindings.values()].sort((x, y) => (nameOf(x) < nameOf(y) ? -1 : 1))) {
      const p = b.spec?.policyName ?? '';
      byPolicy.set(p, [...(byPolicy.get(p) ?? []), b]);
    }
    this.cached = [...this.policies.values()]
      .filter((p) => byPolicy.has(p.name))
      .sort((x, y) => (x.name < y.name ? -1 : 1))
      .map((policy) => ({ policy, bindings: byPolicy.get(policy.name) ?? [] }));
    return this.cached;
  }
}

function mayMatch(p: CompiledPolicy, group: string, resource: string): boolean {
  const rules = p.policy.spec?.matchConstraints?.resourceRules ?? [];
  return rules.some(
    (r) =>
      (r.apiGroups ?? []).some((g) => g === '*' || g === group) &&
      (r.resources ?? []).some((x) => x === '*' || x === '*/*' || x === resource || x.startsWith(`${resource}/`) || x.startsWith('*/')),
  );
}
