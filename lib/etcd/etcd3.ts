// Storage over etcd's gRPC API (DESIGN.md §2.8, §2b): KV.Range / Txn / Compact for reads and
// compare-and-swap writes, one multiplexed Watch stream for watches (etcd3Watch.ts).
import type { Logger } from 'pino';
import type { AvailabilityEvent, EtcdAvailability } from './availability';
import { EndpointPool, isCompactedError, isFutureRevisionError, TlsOptions, toStorageError } from './etcd3Pool';
import {
  CompareResult,
  CompareTarget,
  ProtoKeyValue,
  RangeRequest,
  RangeResponse,
  TxnRequest,
  TxnResponse,
} from './etcd3Proto';
import { WatchMux } from './etcd3Watch';
import { bytesEqual } from './bytes';
import { checkStartKey, prefixEnd } from './keys';
import {
  CompactedError,
  CompactionStore,
  ConflictError,
  DeleteStorageOptions,
  FutureRevisionError,
  GetResult,
  GuaranteedUpdateOptions,
  KeyExistsError,
  KeyValue,
  ListOptions,
  ListResult,
  NotFoundError,
  Storage,
  Watch,
  WatchHandlers,
  WatchOptions,
} from './storage';

export interface Etcd3StorageOptions {
  /** Client URLs, e.g. ['http://127.0.0.1:2379']; requests go round-robin to the READY ones. */
  endpoints: string[];
  /** Client TLS material for https endpoints. */
  tls?: TlsOptions;
  /** Per request, including waiting for a connection and retries; default 10 s. */
  requestTimeoutMs?: number;
  /** Called after every request (etcd_request_duration_seconds). */
  observe?: (operation: string, key: string, seconds: number) => void;
  /** Called once when etcd becomes unreachable (no endpoint connects) and once when it is back. */
  onAvailability?: (e: AvailabilityEvent) => void;
  /**
   * Debug records of connections lost and made again, watch streams resumed and compactions a
   * watch ran into (a child logger with component=etcd, from the entry point); none without one.
   */
  log?: Logger;
}

type Operation = 'get' | 'list' | 'create' | 'update' | 'delete' | 'compact' | 'currentRevision';

/** A key that holds nothing: currentRevision reads it to get the header revision cheaply. */
const REVISION_PROBE_KEY = Buffer.from([0]);

export class Etcd3Storage implements Storage, CompactionStore {
  private readonly pool: EndpointPool;
  private readonly mux: WatchMux;
  private readonly observeFn: Etcd3StorageOptions['observe'];

  constructor(opts: Etcd3StorageOptions) {
    this.pool = new EndpointPool(opts.endpoints, opts.requestTimeoutMs ?? 10_000, opts.tls, opts.onAvailability, opts.log);
    this.mux = new WatchMux(this.pool, opts.log);
    this.observeFn = opts.observe;
  }

  /** Whether etcd can be reached: the outage going on, if any. */
  get availability(): EtcdAvailability {
    return this.pool.availability;
  }

  /** Starts a connection attempt to every endpoint that is idle (probes during an outage). */
  connectAll(): void {
    this.pool.connectAll();
  }

  get(key: string, opts: { revision?: number } = {}): Promise<GetResult> {
    return this.observed('get', key, async () => {
      const res = await this.range({ key: Buffer.from(key), revision: opts.revision ?? 0 }, key, opts.revision);
      return { kv: res.kvs.length > 0 ? toKeyValue(res.kvs[0]) : null, revision: opts.revision || res.header.revision };
    });
  }

  list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    return this.observed('list', prefix, async () => {
      const start = opts.startKey ?? prefix;
      checkStartKey(prefix, start);
      const end = prefixEnd(Buffer.from(prefix));
      const res = await this.range(
        {
          key: start === '' ? Buffer.from([0]) : Buffer.from(start),
          range_end: end.length > 0 ? end : Buffer.from([0]),
          limit: opts.limit ?? 0,
          revision: opts.revision ?? 0,
        },
        prefix,
        opts.revision,
      );
      return { kvs: res.kvs.map(toKeyValue), revision: opts.revision || res.header.revision, more: res.more, count: res.count };
    });
  }

  create(key: string, value: Uint8Array): Promise<KeyValue> {
    return this.observed('create', key, async () => {
      const k = Buffer.from(key);
      const res = await this.txn(
        {
          compare: [{ result: CompareResult.EQUAL, target: CompareTarget.CREATE, key: k, create_revision: 0 }],
          success: [{ request_put: { key: k, value } }],
          failure: [],
        },
        key,
      );
      if (!res.succeeded) throw new KeyExistsError(`key exists: ${key}`, key);
      const rev = res.header.revision;
      return { key, value, modRevision: rev, createRevision: rev };
    });
  }

  guaranteedUpdate(
    key: string,
    tryUpdate: (current: KeyValue | null) => Uint8Array | null | Promise<Uint8Array | null>,
    opts: GuaranteedUpdateOptions = {},
  ): Promise<KeyValue> {
    return this.observed('update', key, async () => {
      const k = Buffer.from(key);
      // A suggested value saves the read; whatever it decides short of a successful
      // compare-and-swap is decided again on etcd's value (upstream's origStateIsCurrent).
      // (Not with expectedModRevision: a stale suggestion could run tryUpdate where a read would have refused.)
      let suggested = opts.suggestion !== undefined && opts.expectedModRevision === undefined;
      let current: KeyValue | null = suggested ? (opts.suggestion ?? null) : await this.readKey(k, key);
      const refresh = async (): Promise<void> => {
        suggested = false;
        current = await this.readKey(k, key);
      };
      for (;;) {
        if (!current && !opts.ignoreNotFound) {
          if (suggested) {
            await refresh();
            continue;
          }
          throw new NotFoundError(`key not found: ${key}`, key);
        }
        const seen: number = current?.modRevision ?? 0;
        if (opts.expectedModRevision !== undefined && seen !== opts.expectedModRevision) throw new ConflictError(key, seen);
        let next: Uint8Array | null;
        try {
          next = await tryUpdate(current);
        } catch (err) {
          if (!suggested) throw err;
          await refresh();
          continue;
        }
        if (next === null || (current && bytesEqual(next, current.value))) {
          if (suggested) {
            await refresh();
            continue;
          }
          if (!current) throw new NotFoundError(`key not found: ${key}`, key);
          return current;
        }
        const res = await this.txn(
          {
            compare: [{ result: CompareResult.EQUAL, target: CompareTarget.MOD, key: k, mod_revision: seen }],
            success: [{ request_put: { key: k, value: next } }],
            // On conflict the failure branch hands us the fresh value: no second round trip.
            failure: [{ request_range: { key: k } }],
          },
          key,
        );
        if (res.succeeded) {
          const rev = res.header.revision;
          return { key, value: next, modRevision: rev, createRevision: current?.createRevision ?? rev };
        }
        suggested = false;
        current = firstKv(res);
      }
    });
  }

  delete(key: string, opts: DeleteStorageOptions = {}): Promise<{ prev: KeyValue; revision: number }> {
    return this.observed('delete', key, async () => {
      const k = Buffer.from(key);
      // A suggestion saves the read; the txn below still compares its mod revision.
      let suggested = opts.suggestion !== undefined;
      let current: KeyValue | null = opts.suggestion ?? (await this.readKey(k, key));
      for (;;) {
        if (!current) throw new NotFoundError(`key not found: ${key}`, key);
        if (opts.validate) {
          try {
            await opts.validate(current);
          } catch (e) {
            if (!suggested) throw e;
            // Refused on the suggested value: decided again on the current one.
            suggested = false;
            current = await this.readKey(k, key);
            continue;
          }
        }
        const res = await this.txn(
          {
            compare: [{ result: CompareResult.EQUAL, target: CompareTarget.MOD, key: k, mod_revision: current.modRevision }],
            success: [{ request_delete_range: { key: k } }],
            failure: [{ request_range: { key: k } }],
          },
          key,
        );
        if (res.succeeded) return { prev: current, revision: res.header.revision };
        suggested = false;
        current = firstKv(res);
      }
    });
  }

  watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Watch {
    return this.mux.watch(key, opts, handlers);
  }

  currentRevision(): Promise<number> {
    return this.observed('currentRevision', '', async () => {
      const res = await this.range({ key: REVISION_PROBE_KEY, keys_only: true, limit: 1 }, '');
      return res.header.revision;
    });
  }

  requestProgress(): void {
    this.mux.requestProgress();
  }

  compact(revision: number): Promise<void> {
    return this.observed('compact', '', async () => {
      try {
        // physical: return once the compaction is applied, as the interface promises.
        await this.pool.unary('Compact', { revision, physical: true }, 'write');
      } catch (err) {
        throw await this.revisionError(err, revision, '');
      }
    });
  }

  putIfVersion(key: string, expectedVersion: number, value: Uint8Array): Promise<{ succeeded: boolean; version: number; revision: number }> {
    return this.observed('update', key, async () => {
      const k = Buffer.from(key);
      const res = await this.txn(
        {
          compare: [{ result: CompareResult.EQUAL, target: CompareTarget.VERSION, key: k, version: expectedVersion }],
          success: [{ request_put: { key: k, value } }],
          failure: [{ request_range: { key: k } }],
        },
        key,
      );
      const version = res.succeeded ? expectedVersion + 1 : (res.responses[0]?.response_range?.kvs[0]?.version ?? 0);
      return { succeeded: res.succeeded, version, revision: res.header.revision };
    });
  }

  async close(): Promise<void> {
    this.mux.close();
    this.pool.close();
  }

  /** Streams opened by the shared watch (1 while healthy; more after reconnects). */
  get watchStreamsOpened(): number {
    return this.mux.streamsOpened;
  }

  /** The key's current value, null when absent (one range read). */
  private async readKey(k: Buffer, key: string): Promise<KeyValue | null> {
    return (await this.range({ key: k }, key)).kvs.map(toKeyValue)[0] ?? null;
  }

  private async range(req: RangeRequest, key: string, requestedRevision?: number): Promise<RangeResponse> {
    try {
      return await this.pool.unary('Range', req, 'read');
    } catch (err) {
      throw await this.revisionError(err, requestedRevision ?? 0, key);
    }
  }

  private async txn(req: TxnRequest, key: string): Promise<TxnResponse> {
    try {
      return await this.pool.unary('Txn', req, 'write');
    } catch (err) {
      throw toStorageError(err, key);
    }
  }

  /** etcd's compacted/future errors carry no numbers: ask for them (only on this error path). */
  private async revisionError(err: unknown, revision: number, key: string): Promise<Error> {
    if (isCompactedError(err)) return new CompactedError(revision, await this.probeCompactRevision(revision));
    if (isFutureRevisionError(err)) return new FutureRevisionError(revision, await this.currentRevision().catch(() => 0));
    return toStorageError(err, key);
  }

  /**
   * The store's compact revision, learned from a watch below the compacted revision (compact()
   * fails at revision ≤ compact revision, a watch only below it): etcd answers it with
   * compact_revision. 0 when it cannot be learned within 2 s.
   */
  private probeCompactRevision(revision: number): Promise<number> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (rev: number): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        w.close();
        resolve(rev);
      };
      const timer = setTimeout(() => finish(0), 2000);
      const w = this.mux.watch(REVISION_PROBE_KEY.toString('latin1'), { startRevision: Math.max(revision - 1, 1), prefix: false }, {
        onEvents: () => finish(0),
        onError: (e) => finish(e instanceof CompactedError ? e.compactRevision : 0),
      });
    });
  }

  private async observed<T>(operation: Operation, key: string, fn: () => Promise<T>): Promise<T> {
    if (!this.observeFn) return fn();
    const start = process.hrtime.bigint();
    try {
      return await fn();
    } finally {
      this.observeFn(operation, key, Number(process.hrtime.bigint() - start) / 1e9);
    }
  }
}

function toKeyValue(kv: ProtoKeyValue): KeyValue {
  return { key: kv.key.toString('utf8'), value: kv.value, modRevision: kv.mod_revision, createRevision: kv.create_revision };
}

function firstKv(res: TxnResponse): KeyValue | null {
  const kv = res.responses[0]?.response_range?.kvs[0];
  return kv ? toKeyValue(kv) : null;
}
