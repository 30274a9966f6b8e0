// The namespaces every cluster has (upstream's system-namespaces controller, svc names).
import { systemNamespaces } from '../api/product';
import { isApiError } from '../machinery/errors';
import type { AdmissionOptions, GenericStore } from './store';
import { systemContext } from './stores';

/** Creates any missing system namespace; retries while storage is unreachable. */
export async function ensureSystemNamespaces(namespaces: GenericStore, opts: AdmissionOptions & { retryMs?: number; attempts?: number } = {}): Promise<void> {
  const retryMs = opts.retryMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    try {
      for (const name of systemNamespaces) {
        try {
          await namespaces.create(systemContext(), { metadata: { name } }, { admission: opts.admission });
        } catch (e) {
          if (!(isApiError(e) && e.code === 409)) throw e;
        }
      }
      return;
    } catch (e) {
      if (attempt >= (opts.attempts ?? Infinity)) throw e;
      await new Promise((r) => setTimeout(r, retryMs));
    }
  }
}
