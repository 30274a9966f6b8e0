// The unsafe delete of an object whose stored value cannot be decoded (spec §3.2; upstream 1.32's
// registry corruptObjectDeleter): only such an object may be removed this way, and it is removed
// outright — no finalizers, preconditions, admission or grace, since none of them can be read.
import { errors } from '../machinery/errors';
import { fieldErr } from '../machinery/fieldErrors';
import type { KeyValue } from '../etcd/storage';
import { NotFoundError } from '../etcd/storage';
import { CorruptObjectError } from './storageCodec';
import { translateStorageError } from './storageErrors';
import type { GenericStore } from './store';
import type { RequestContext } from './strategy';

/** The DeleteOptions field that asks for this deletion. */
const optionField = 'ignoreStoreReadErrorWithClusterBreakingPotential';

/** Resolves false when the key was already gone at the moment of deletion (upstream: nil, false). */
export async function deleteCorruptObject(store: GenericStore, ctx: RequestContext, name: string): Promise<boolean> {
  const gr = store.groupResource;
  const key = store.keys.object(store.resource.namespaced ? ctx.namespace : '', name);
  // Upstream answers a missing or readable object alike: the option is for corrupt ones only.
  const refuse = () => errors.invalid({ group: gr.group, kind: gr.resource }, name, [fieldErr.invalid(optionField, true, 'is exclusively used to delete corrupt object(s), try again by removing this option')]);
  const isCorrupt = (kv: KeyValue): boolean => {
    try {
      store.decode(kv);
      return false;
    } catch (e) {
      if (e instanceof CorruptObjectError) return true;
      throw e;
    }
  };
  let current: KeyValue | null;
  try {
    current = (await store.storage.get(key)).kv;
  } catch (e) {
    throw translateStorageError(e, gr, name, 'delete');
  }
  if (!current || !isCorrupt(current)) throw refuse();
  try {
    // A value that became readable in between is not removed (upstream would remove it regardless).
    await store.storage.delete(key, {
      validate: (cur) => {
        if (!isCorrupt(cur)) throw refuse();
      },
    });
    return true;
  } catch (e) {
    if (e instanceof NotFoundError) return false;
    throw translateStorageError(e, gr, name, 'delete');
  }
}
