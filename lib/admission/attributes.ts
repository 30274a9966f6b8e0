// What a validating admission plugin sees of a write (upstream admission.Attributes).
import type { ApiObject } from '../api';
import type { UserInfo } from '../auth/user';

export interface AdmissionAttributes {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  resource: { group: string; resource: string };
  /** '' for the main resource. */
  subresource: string;
  namespaced: boolean;
  namespace: string;
  name: string;
  /** The object after the write (for DELETE: the stored object). */
  obj: ApiObject;
  /** The stored object before an UPDATE or DELETE; null on CREATE. */
  old: ApiObject | null;
  user: UserInfo;
  dryRun: boolean;
  /** The served version and kind of the request (for policies' `request` and matchPolicy). */
  version?: string;
  kind?: string;
  /** Adds a Warning header to the response. */
  warn?(text: string): void;
  /** Adds an annotation to the request's audit event. */
  addAuditAnnotation?(key: string, value: string): void;
}

/** A validating plugin: returns to admit, throws an ApiError to refuse. */
export type ValidatingPlugin = (a: AdmissionAttributes) => Promise<void> | void;

/**
 * Runs plugins in order; the first refusal wins. A plugin that has nothing to check for the
 * request returns at once (no promise), and is not awaited: an await is a turn of the
 * microtask queue and a promise per plugin, on every write.
 */
export function validatingChain(plugins: readonly ValidatingPlugin[]): ValidatingPlugin {
  return async (a) => {
    for (const p of plugins) {
      const pending = p(a);
      if (pending) await pending;
    }
  };
}
