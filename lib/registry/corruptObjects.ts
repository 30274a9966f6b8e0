// Stored values that cannot be decoded (spec §3.2), reported as upstream 1.32 does with
// AllowUnsafeMalformedObjectDeletion's machinery (k8s.io/apiserver storage/etcd3/corrupt_obj_deleter.go):
// a list collects them into one StorageReadError. (Watchers of an unsafe delete: lib/registry/watch.ts.)
import type { StatusCause } from '../api';
import { errors, ApiError, GroupResource, qualifiedResource } from '../machinery/errors';
import { CorruptObjectError } from './storageCodec';

/** Upstream's corruptObjErrAggregatorFactory(100): at most this many keys are named. */
export const maxCorruptObjectsReported = 100;

const tooManyText = 'too many errors, the list is truncated';

/** Collects the corrupt items a list meets; anything else aborts the list. */
export class CorruptListItems {
  private readonly found: CorruptObjectError[] = [];
  private truncated = false;

  /** True when the list should stop reading (upstream stops past the limit). */
  add(e: CorruptObjectError): boolean {
    if (this.found.length >= maxCorruptObjectsReported) {
      this.truncated = true;
      return true;
    }
    this.found.push(e);
    return false;
  }

  get any(): boolean {
    return this.found.length > 0;
  }

  /** upstream's aggregatedStorageError.NewAPIStatusError: 500 StorageReadError, a cause per key. */
  error(gr: GroupResource): ApiError {
    const causes: StatusCause[] = this.found.map((e) => ({ reason: 'UnexpectedServerResponse', message: e.message, field: e.key }));
    if (this.truncated) causes.push({ reason: 'FieldValueTooMany', message: tooManyText });
    const details = { ...(gr.group ? { group: gr.group } : {}), kind: gr.resource, name: 'list', causes };
    return errors.storageReadError(`failed to read one or more ${qualifiedResource(gr)} from the storage`, details);
  }
}
