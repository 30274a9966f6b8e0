// Storage errors become API errors here, once (DESIGN.md §3 "Errors").
import { errors, ApiError, GroupResource } from '../machinery/errors';
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  KeyExistsError,
  NotFoundError,
  UnavailableError,
} from '../etcd/storage';
import { CacheReinitializingError } from '../watchcache';
import { CorruptObjectError } from './storageCodec';

export function translateStorageError(e: unknown, gr: GroupResource, name: string, operation: string): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof NotFoundError) return errors.notFound(gr, name);
  if (e instanceof KeyExistsError) return errors.alreadyExists(gr, name);
  if (e instanceof ConflictError) return errors.staleResourceVersion(gr, name);
  if (e instanceof CompactedError) return errors.expired(`The resourceVersion for the provided ${operation} is too old.`);
  if (e instanceof FutureRevisionError) return errors.tooLargeResourceVersion(e.requestedRevision, e.currentRevision, 0);
  // The Status says "please try again"; the storage error stays with it for the request's log line.
  if (e instanceof UnavailableError) return Object.assign(errors.serverTimeout(gr, operation), { cause: e });
  if (e instanceof CacheReinitializingError) return errors.tooManyRequests('storage is (re)initializing', 1);
  // Upstream's InterpretGetError / InterpretDeleteError: a corrupt object is an InternalError.
  if (e instanceof CorruptObjectError) return errors.internal(e.message);
  return errors.internal(e instanceof Error ? e.message : String(e));
}
