// Upstream's NamespaceLifecycle admission: no new objects in a namespace that does not exist or
// is being terminated (errors.md §7). Updates and deletes in a Terminating namespace pass.
import type { ApiObject, Namespace } from '../api';
import { errors } from '../machinery/errors';

export interface NamespaceLifecycleInput {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  namespaced: boolean;
  /** The resource being written, for the 403 message. */
  resource: { group: string; resource: string };
  obj: ApiObject;
}

/** A namespace, null when it does not exist; a cache hit may come back without a promise. */
export type NamespaceLookup = (name: string) => Namespace | null | Promise<Namespace | null>;

export function namespaceLifecycle(lookup: NamespaceLookup): (input: NamespaceLifecycleInput) => Promise<void> | void {
  return ({ operation, namespaced, resource, obj }) => {
    if (operation !== 'CREATE' || !namespaced) return;
    const ns = obj.metadata?.namespace ?? '';
    const found = lookup(ns);
    if (found instanceof Promise) return found.then((f) => admitInto(f, ns, resource, obj));
    admitInto(found, ns, resource, obj);
  };
}

function admitInto(found: Namespace | null, ns: string, resource: { group: string; resource: string }, obj: ApiObject): void {
  if (!found) throw errors.notFound({ group: '', resource: 'namespaces' }, ns);
  if (found.status?.phase === 'Terminating' || found.metadata?.deletionTimestamp) {
    throw errors.forbidden(resource, obj.metadata?.name ?? '', `unable to create new content in namespace ${ns} because it is being terminated`, [
      { reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' },
    ]);
  }
}
