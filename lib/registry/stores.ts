// Builds one generic store per registered strategy over a shared storage.
import type { Namespace } from '../api';
import type { Storage } from '../etcd/storage';
import { isApiError } from '../machinery/errors';
import { GenericStore, ValidatingAdmission } from './store';
import type { RequestContext, Strategy } from './strategy';

export const systemUser = { name: 'system:apiserver', groups: ['system:masters'] };

/** A context for the server's own requests (bootstrap, admission lookups). */
export function systemContext(namespace = ''): RequestContext {
  return { user: systemUser, namespace, subresource: '', dryRun: false, now: () => new Date() };
}

export function createStores(
  storage: Storage,
  strategies: readonly Strategy[],
  prefix: string,
  admission?: ValidatingAdmission,
): GenericStore[] {
  return strategies.map((strategy) => new GenericStore({ storage, strategy, prefix, admission }));
}

/** Reads a namespace, null when it does not exist (for admission). */
export function namespaceLookup(stores: readonly GenericStore[]): (name: string) => Promise<Namespace | null> {
  const ns = stores.find((s) => s.resource.resource === 'namespaces' && s.resource.group === '');
  if (!ns) throw new Error('namespaces are not served');
  return async (name) => {
    if (!name) return null;
    try {
      return (await ns.get(systemContext(), name)) as Namespace;
    } catch (e) {
      if (isApiError(e) && e.code === 404) return null;
      throw e;
    }
  };
}
