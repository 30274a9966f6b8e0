// Feeds the ValidatingAdmissionPolicy plugin from the stores: policies and bindings followed from
// their (v1) watch caches into a PolicySet, parameters and namespaces read from the caches.
import type { ApiObject, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../lib/api';
import { apiVersionOf, validatingadmissionpolicies, validatingadmissionpolicybindings } from '../../lib/api';
import type { ParamKind, PolicyPluginDeps, PolicySet } from '../../lib/admission';
import { isApiError } from '../../lib/machinery/errors';
import { labelSelectorFromWire } from '../../lib/auth/rbac';
import { followStore } from '../../lib/registry/follow';
import { listObjects } from '../../lib/registry/list';
import type { GenericStore } from '../../lib/registry/store';
import type { ObjectSchema } from '../../lib/api/schema';
import { namespaceLookup, systemContext } from '../../lib/registry/stores';
import type { LiveStores } from '../../lib/apiserver/resourceRegistry';

function storeOf(stores: readonly GenericStore[], info: { group: string; version: string; resource: string }): GenericStore {
  const s = stores.find((x) => x.resource.group === info.group && x.resource.version === info.version && x.resource.resource === info.resource);
  if (!s) throw new Error(`${info.resource}.${info.group}/${info.version} has no store`);
  return s;
}

/** What policies look up in the served stores, rebuilt when the set changes (a CRD installed or removed). */
interface ServedIndex {
  generation: number;
  versions: Map<string, string[]>;
  schemas: Map<string, ObjectSchema | undefined>;
}

function indexStores(stores: readonly GenericStore[], generation: number): ServedIndex {
  const versions = new Map<string, string[]>();
  for (const s of stores) {
    const key = `${s.resource.group}/${s.resource.resource}`;
    versions.set(key, [...(versions.get(key) ?? []), s.resource.version]);
  }
  const schemas = new Map<string, ObjectSchema | undefined>();
  for (const s of [...stores].reverse()) schemas.set(`${s.resource.group}/${s.resource.version}/${s.resource.resource}`, s.resource.schema);
  return { generation, versions, schemas };
}

export function followPolicies(resources: LiveStores, set: PolicySet): { deps: PolicyPluginDeps; synced: Promise<void>; stop(): void } {
  const stores = resources.stores;
  const policyFollower = followStore(storeOf(stores, validatingadmissionpolicies), {
    replace: (objs) => set.replacePolicies(objs as ValidatingAdmissionPolicy[]),
    upsert: (o) => set.upsertPolicy(o as ValidatingAdmissionPolicy),
    remove: (o) => set.removePolicy(o as ValidatingAdmissionPolicy),
  });
  const bindingFollower = followStore(storeOf(stores, validatingadmissionpolicybindings), {
    replace: (objs) => set.replaceBindings(objs as ValidatingAdmissionPolicyBinding[]),
    upsert: (o) => set.upsertBinding(o as ValidatingAdmissionPolicyBinding),
    remove: (o) => set.removeBinding(o as ValidatingAdmissionPolicyBinding),
  });
  // Parameters may be custom resources: found among the stores served now, in any served version.
  const paramStore = (k: ParamKind): GenericStore | undefined =>
    resources.stores.find((s) => apiVersionOf(s.resource) === k.apiVersion && s.resource.kind === k.kind && (!s.resource.storageVersion || s.resource.unstructured));
  let index = indexStores(stores, resources.generation);
  const served = (): ServedIndex => {
    if (index.generation !== resources.generation) index = indexStores(resources.stores, resources.generation);
    return index;
  };
  const deps: PolicyPluginDeps = {
    policies: set,
    namespace: namespaceLookup(stores),
    paramScope: (k) => {
      const s = paramStore(k);
      return s ? { namespaced: s.resource.namespaced } : undefined;
    },
    param: async (k, namespace, name) => {
      const s = paramStore(k);
      if (!s) return null;
      try {
        // From the watch cache, as upstream's param informer.
        return (await s.get(systemContext(namespace), name, { any: true })) as ApiObject;
      } catch (e) {
        if (isApiError(e) && e.code === 404) return null;
        throw e;
      }
    },
    paramsBySelector: async (k, namespace, selector) => {
      const s = paramStore(k);
      if (!s) return [];
      const sel = labelSelectorFromWire(selector);
      const list = await listObjects(s, {
        namespace,
        source: { kind: 'any' },
        limit: 0,
        predicate: { everything: false, matches: (o) => sel.matches(o.metadata?.labels ?? {}) },
      });
      return list.items;
    },
    versionsOf: (group, resource) => served().versions.get(`${group}/${resource}`) ?? [],
    // Asked on every admitted request that some policy matches: a map, not a scan of the stores.
    schemaOf: (group, version, resource) => served().schemas.get(`${group}/${version}/${resource}`),
  };
  return {
    deps,
    synced: Promise.all([policyFollower.synced, bindingFollower.synced]).then(() => undefined),
    stop() {
      policyFollower.stop();
      bindingFollower.stop();
    },
  };
}
