// Runs the ValidatingAdmissionPolicy status controller inside the apiserver, as kube-apiserver
// does: policies followed from the v1 watch cache, kinds and schemas from the served stores,
// status written through the /status endpoint's strategy as "validatingadmissionpolicy-status".
import type { ValidatingAdmissionPolicy } from '../../lib/api';
import { validatingadmissionpolicies } from '../../lib/api';
import { PolicyStatusController, policyStatusControllerName, type KindResolver } from '../../lib/admission';
import { followStore } from '../../lib/registry/follow';
import type { AdmissionOptions } from '../../lib/registry/store';
import type { LiveStores } from '../../lib/apiserver/resourceRegistry';
import { systemContext } from '../../lib/registry/stores';

/** Kinds and schemas of the stores served when asked (custom resources included). */
export function kindResolver(resources: LiveStores): KindResolver {
  return {
    kindFor: (group, version, resource) => {
      const s = resources.stores.find((x) => x.resource.group === group && x.resource.version === version && x.resource.resource === resource);
      return s ? { group, version, kind: s.resource.kind } : undefined;
    },
    schemaFor: (gvk) => resources.stores.find((x) => x.resource.group === gvk.group && x.resource.version === gvk.version && x.resource.kind === gvk.kind)?.resource.schema,
  };
}

export function startPolicyStatusController(
  resources: LiveStores,
  writes: AdmissionOptions,
  onError: (name: string, err: Error) => void,
): { stop(): void } {
  const store = resources.stores.find(
    (s) => s.resource.group === validatingadmissionpolicies.group && s.resource.version === validatingadmissionpolicies.version && s.resource.resource === validatingadmissionpolicies.resource,
  );
  if (!store) return { stop: () => undefined };
  const ctx = { ...systemContext(), subresource: 'status', fieldManager: policyStatusControllerName };
  const controller = new PolicyStatusController({
    resolver: kindResolver(resources),
    onError,
    writeStatus: async (name, generation, status) => {
      await store.update(ctx, name, (current) => {
        const p = current as ValidatingAdmissionPolicy | null;
        // Deleted, or a newer generation whose own event follows: leave it.
        if (!p || (p.metadata?.generation ?? 0) !== generation) return p ?? {};
        return { ...p, status: { ...p.status, ...status } };
      }, writes);
    },
  });
  const follower = followStore(store, {
    replace: (objs) => objs.forEach((o) => controller.observe(o as ValidatingAdmissionPolicy)),
    upsert: (o) => controller.observe(o as ValidatingAdmissionPolicy),
    remove: (o) => controller.forget(o as ValidatingAdmissionPolicy),
  });
  return {
    stop() {
      follower.stop();
      controller.stop();
    },
  };
}
