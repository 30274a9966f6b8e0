// Read-modify-write updates on both sides, as a controller does them: the svc-apiserver side GETs
// an object and PUTs it back with one label changed (resourceVersion from the GET, so a
// concurrent writer is a 409 and the update is retried); the raw side gets the key and writes it
// back in a compare-mod-revision transaction (etcd's equivalent of the precondition).
import type { Etcd3 } from 'etcd3';
import { rawCollection } from './etcdBaseline';
import type { HttpsClient } from './httpsClient';
import { runLoad, LoadResult, Pids } from './load';
import { objectName, serviceAccounts, type BenchKind } from './objects';

/** Objects are taken in turn (op i updates object (offset + i) mod objects), so concurrent ops touch different objects. */
export function serverUpdates(client: HttpsClient, pids: Pids, ns: string, objects: number, offset: number, count: number, concurrency: number, kind: BenchKind = serviceAccounts): Promise<LoadResult> {
  const collection = kind.collection(ns);
  return runLoad({ concurrency, count, pids }, async (i) => {
    const path = `${collection}/${objectName((offset + i) % objects)}`;
    for (let attempt = 0; ; attempt++) {
      const got = await client.request('GET', path);
      if (got.status !== 200) throw new Error(`update: GET: HTTP ${got.status}: ${got.text().slice(0, 300)}`);
      const obj = got.json<{ metadata: { labels?: Record<string, string> } }>();
      obj.metadata.labels = { ...obj.metadata.labels, 'bench-update': String(offset + i) };
      const put = await client.request('PUT', path, obj);
      if (put.status === 200) return;
      if (put.status !== 409 || attempt >= 3) throw new Error(`update: PUT: HTTP ${put.status}: ${put.text().slice(0, 300)}`);
    }
  });
}

export function etcdUpdates(client: Etcd3, pids: Pids, ns: string, objects: number, offset: number, count: number, concurrency: number): Promise<LoadResult> {
  return runLoad({ concurrency, count, pids }, async (i) => {
    const key = `${rawCollection(ns)}${objectName((offset + i) % objects)}`;
    for (let attempt = 0; ; attempt++) {
      const r = await client.kv.range({ key: Buffer.from(key) });
      const kv = r.kvs[0];
      if (!kv) throw new Error(`update: missing key ${key}`);
      const t = await client.kv.txn({
        compare: [{ key: kv.key, target: 'Mod', result: 'Equal', mod_revision: kv.mod_revision }],
        success: [{ request_put: { key: kv.key, value: kv.value } }],
        failure: [],
      });
      if (t.succeeded) return;
      if (attempt >= 3) throw new Error(`update ${key}: conflict after ${attempt + 1} attempts`);
    }
  });
}
