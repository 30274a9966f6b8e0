// The raw etcd side, with the npm etcd3 client: the same operations on the same bytes the
// apiserver stores (its stored value of one object, renamed), under /bench-raw/ in the same etcd.
import { Etcd3 } from 'etcd3';
import { runLoad, LoadResult, Pids } from './load';
import { objectName, rawPrefix } from './objects';
import type { ListMode, ListOutcome } from './serverLoad';

export function etcdClient(endpoint: string): Etcd3 {
  // A 10k-object range is ~10 MiB, above gRPC's default 4 MiB receive cap.
  return new Etcd3({ hosts: endpoint, grpcOptions: { 'grpc.max_receive_message_length': -1, 'grpc.max_send_message_length': -1 } });
}

export const rawCollection = (ns: string): string => `${rawPrefix}serviceaccounts/${ns}/`;

/** The key just after every key starting with prefix. */
function prefixEnd(prefix: string): Buffer {
  const b = Buffer.from(prefix);
  for (let i = b.length - 1; i >= 0; i--) {
    if (b[i] < 0xff) {
      const end = Buffer.from(b.subarray(0, i + 1));
      end[i]++;
      return end;
    }
  }
  return Buffer.from([0]);
}

/** The stored value of object `name`, renamed to objectName(i) (same length, same shape). */
export function renamedValue(template: Buffer, name: string, i: number): Buffer {
  return Buffer.from(template.toString('utf8').split(name).join(objectName(i)));
}

/** Create-if-absent transactions (compare create_revision = 0, then put), as a store's create. */
export function etcdCreates(client: Etcd3, pids: Pids, ns: string, template: Buffer, templateName: string, first: number, count: number, concurrency: number): Promise<LoadResult> {
  const values = Array.from({ length: count }, (_, i) => renamedValue(template, templateName, first + i));
  const keys = Array.from({ length: count }, (_, i) => `${rawCollection(ns)}${objectName(first + i)}`);
  return runLoad({ concurrency, count, pids }, async (i) => {
    const r = await client.if(keys[i], 'Create', '==', 0).then(client.put(keys[i]).value(values[i])).commit();
    if (!r.succeeded) throw new Error(`create ${keys[i]}: already exists`);
  });
}

export function etcdGets(client: Etcd3, pids: Pids, ns: string, objects: number, concurrency: number, seconds: number): Promise<LoadResult> {
  const keys = Array.from({ length: objects }, (_, i) => `${rawCollection(ns)}${objectName(i)}`);
  return runLoad({ concurrency, seconds, pids }, async () => {
    const v = await client.get(keys[(Math.random() * objects) | 0]).buffer();
    if (!v) throw new Error('get: missing key');
  });
}

/**
 * One full range of the collection: unpaged (linearizable, like a list without resourceVersion),
 * paged (limit per range, pinned to the first page's revision, like continue tokens), or
 * serializable (member-local, the etcd read closest to resourceVersion=0's "any state").
 */
export async function etcdListOnce(client: Etcd3, ns: string, mode: ListMode, pageSize = 500): Promise<ListOutcome> {
  const prefix = rawCollection(ns);
  const end = prefixEnd(prefix);
  const bytesOf = (kvs: { key: Buffer; value: Buffer }[]): number => kvs.reduce((n, kv) => n + kv.key.length + kv.value.length, 0);
  if (mode !== 'paged') {
    const r = await client.kv.range({ key: Buffer.from(prefix), range_end: end, serializable: mode === 'rv0' });
    return { items: r.kvs.length, bytes: bytesOf(r.kvs) };
  }
  let start = Buffer.from(prefix);
  let revision: string | undefined;
  let items = 0;
  let bytes = 0;
  for (;;) {
    const r = await client.kv.range({ key: start, range_end: end, limit: pageSize, ...(revision ? { revision } : {}) });
    revision ??= r.header.revision;
    items += r.kvs.length;
    bytes += bytesOf(r.kvs);
    if (!r.more || r.kvs.length === 0) return { items, bytes };
    start = Buffer.concat([r.kvs[r.kvs.length - 1].key, Buffer.from([0])]);
  }
}

export async function etcdLists(client: Etcd3, pids: Pids, ns: string, mode: ListMode, iterations: number, pageSize: number): Promise<LoadResult & ListOutcome> {
  let last: ListOutcome = { items: 0, bytes: 0 };
  const r = await runLoad({ concurrency: 1, count: iterations, pids }, async () => {
    last = await etcdListOnce(client, ns, mode, pageSize);
  });
  return { ...r, ...last };
}
