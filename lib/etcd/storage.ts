// The storage interface (DESIGN.md §2.8): a revisioned key-value store with etcd's semantics.
// Values are opaque bytes; the registry owns encoding. Every implementation (memory, etcd3,
// and later the watch cache) passes the same contract suite (testing/contract.ts).

export interface KeyValue {
  key: string;
  value: Uint8Array;
  /** Revision of the last change to this key: the object's resourceVersion. */
  modRevision: number;
  createRevision: number;
}

export interface GetResult {
  kv: KeyValue | null;
  /** Store revision the read was served at. */
  revision: number;
}

export interface ListOptions {
  /** Read at this revision (0 or absent: latest). Compacted → CompactedError; future → FutureRevisionError. */
  revision?: number;
  /** Maximum number of keys (0 or absent: unlimited). */
  limit?: number;
  /** Start at this key (inclusive) instead of the prefix itself; must lie inside the prefix. */
  startKey?: string;
}

export interface ListResult {
  kvs: KeyValue[];
  /** Revision the range was read at. */
  revision: number;
  /** More keys exist after the last returned one. */
  more: boolean;
  /** Number of keys in [startKey, prefixEnd) at that revision (etcd's count). */
  count: number;
}

export type WatchEventType = 'put' | 'delete';

export interface WatchEvent {
  type: WatchEventType;
  key: string;
  /** For put: the new value; for delete: the value before deletion. */
  value: Uint8Array;
  /** Revision of the change (for delete: the deletion's revision). */
  modRevision: number;
  createRevision: number;
  /** The value before the change, when there was one. */
  prevValue?: Uint8Array;
  prevModRevision?: number;
}

export interface WatchOptions {
  /** Deliver changes with revision ≥ this (0 or absent: changes after the current revision). */
  startRevision?: number;
  /** Watch every key under the prefix (true) or the exact key (false). Default true. */
  prefix?: boolean;
  /** Request periodic progress notifications (revision advances while idle). */
  progressNotify?: boolean;
  /**
   * The consumer ends the watch after this many milliseconds (the API's timeoutSeconds). A
   * store that schedules progress notifications itself may send one shortly before (the watch
   * cache: 2 s before, as upstream's cacher); the store does not end the watch.
   */
  timeoutMs?: number;
}

/**
 * Handlers run on the storage's delivery path: keep them quick. One that throws ends its own
 * watch (onError receives what it threw); other watches are unaffected.
 */
export interface WatchHandlers {
  /** Events in revision order; each event delivered exactly once. */
  onEvents(events: WatchEvent[]): void;
  /** A progress notification: every change up to this revision has been delivered. */
  onProgress?(revision: number): void;
  /** The watch ended with an error (CompactedError, or a fatal transport error). No more calls follow. */
  onError(err: Error): void;
}

export interface Watch {
  /** Stops the watch; no handler is called afterwards. Idempotent. */
  close(): void;
}

export interface GuaranteedUpdateOptions {
  expectedModRevision?: number;
  ignoreNotFound?: boolean;
  /**
   * A recent value of the key (the watch cache's; null: absent there) that a store may try first
   * instead of reading the key (upstream's cached existing object). Only an optimisation: any
   * decision taken on it (not found, a conflict, tryUpdate throwing or changing nothing) is taken
   * again on the store's current value before it stands, and the write compares mod revisions.
   */
  suggestion?: KeyValue | null;
}

export interface DeleteStorageOptions {
  /** Sees the value about to be deleted and may throw to abort (preconditions). */
  validate?: (current: KeyValue) => void | Promise<void>;
  /**
   * A recent value of the key (the caller's own read) to try first instead of reading the key,
   * as GuaranteedUpdateOptions.suggestion: the delete compares its mod revision, and a refusal by
   * validate on it is decided again on the store's current value.
   */
  suggestion?: KeyValue;
}

export interface Storage {
  get(key: string, opts?: { revision?: number }): Promise<GetResult>;
  /** All keys starting with prefix (which normally ends with '/'), in key order. */
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;
  /** Creates the key if absent (txn create_revision == 0); KeyExistsError otherwise. */
  create(key: string, value: Uint8Array): Promise<KeyValue>;
  /**
   * Read-modify-write with optimistic concurrency. tryUpdate receives the current value (null if
   * absent) and returns the new value; it may run several times and must have no side effects.
   * Throwing from tryUpdate aborts. Returning null from tryUpdate means "no change" and returns
   * the current value unchanged; so does returning bytes equal to the current value (like
   * upstream: a no-op update creates no revision). `expectedModRevision` pins the first attempt:
   * when the key's modRevision differs, ConflictError is thrown instead of retrying.
   * With ignoreNotFound, tryUpdate sees null for an absent key and its result creates the key;
   * returning null there throws NotFoundError (there is no value to return).
   */
  guaranteedUpdate(
    key: string,
    tryUpdate: (current: KeyValue | null) => Uint8Array | null | Promise<Uint8Array | null>,
    opts?: GuaranteedUpdateOptions,
  ): Promise<KeyValue>;
  /**
   * Deletes the key. validate (optional) sees the current value and may throw to abort
   * (preconditions); the delete is a txn on that value's modRevision, retried on conflict.
   * NotFoundError when absent.
   */
  delete(key: string, opts?: DeleteStorageOptions): Promise<{ prev: KeyValue; revision: number }>;
  watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Watch;
  /** The store's current revision (a cheap quorum read). */
  currentRevision(): Promise<number>;
  /**
   * Asks for a progress notification on every open watch: each watch's onProgress is called
   * with a revision once all its events up to that revision were delivered. Fire-and-forget;
   * a no-op without open watches. (etcd < 3.4.25 may send this notification ahead of queued
   * events; see etcd3Watch.ts.)
   */
  requestProgress(): void;
  /** Compacts history up to revision; returns when done. */
  compact(revision: number): Promise<void>;
  /** Releases connections and watches; the process may exit afterwards. */
  close(): Promise<void>;
}

/**
 * What the compactor needs besides compact() (kube-apiserver's compact_rev_key protocol); both
 * backends implement it. Kept out of Storage so a delegating store need not forward it.
 */
export interface CompactionStore {
  /**
   * One transaction: if the key's version (etcd's per-key write counter; 0 when absent) equals
   * expectedVersion, put value (version becomes expectedVersion + 1); otherwise read the key.
   * Returns whether the put happened, the key's version afterwards, and the store revision.
   */
  putIfVersion(key: string, expectedVersion: number, value: Uint8Array): Promise<{ succeeded: boolean; version: number; revision: number }>;
  compact(revision: number): Promise<void>;
}

export class StorageError extends Error {
  constructor(
    message: string,
    readonly key: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
export class NotFoundError extends StorageError {}
export class KeyExistsError extends StorageError {}
export class ConflictError extends StorageError {
  constructor(
    key: string,
    readonly actualModRevision: number,
  ) {
    super(`conflict on ${key}: modRevision is ${actualModRevision}`, key);
  }
}
/** The requested revision has been compacted. */
export class CompactedError extends StorageError {
  constructor(
    readonly requestedRevision: number,
    readonly compactRevision: number,
  ) {
    super(`required revision ${requestedRevision} has been compacted (compact revision ${compactRevision})`, '');
  }
}
/** The requested revision is newer than the store's current revision. */
export class FutureRevisionError extends StorageError {
  constructor(
    readonly requestedRevision: number,
    readonly currentRevision: number,
  ) {
    super(`required revision ${requestedRevision} is a future revision (current ${currentRevision})`, '');
  }
}
/** The store could not be reached. */
export class UnavailableError extends StorageError {}
