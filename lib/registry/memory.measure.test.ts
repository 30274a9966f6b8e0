// Memory per object of the watch cache plus the store's memos (issue 14 item 3), from heap
// statistics after full GCs: ≤ 3× the object's JSON once every object was listed and read as
// JSON (the target), and ≤ 2× since the served JSON is rebuilt from the stored bytes
// instead of kept beside them (servedJsonSplice.ts; 2.46× → 1.54× with it). Decoded trees cost
// several times their JSON, which is why only small memos keep decoded objects.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MemoryStorage } from '../etcd/memory';
import { builtinStrategies } from './builtin';
import { listObjects } from './list';
import { everything } from './predicate';
import type { GenericStore } from './store';
import { closeCaches, createStores, startCaches, systemContext } from './stores';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

function retained(): number {
  for (let i = 0; i < 4; i++) gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const report = (line: string): void => void process.stderr.write(`memory measure: ${line}\n`);
const n = 4000;

/** The bench's ServiceAccount (~1.3 KiB as JSON). */
const serviceAccount = (i: number): Record<string, unknown> => ({
  metadata: {
    name: `sa-${String(i).padStart(6, '0')}`,
    labels: { app: 'bench', tier: 'load', 'svc.io/owner': 'bench' },
    annotations: { 'bench.svc.io/pad': 'x'.repeat(512) },
  },
  secrets: [{ name: `sa-${i}-token` }, { name: `sa-${i}-dockercfg` }],
  imagePullSecrets: [{ name: 'registry' }],
  automountServiceAccountToken: false,
});

async function setup(): Promise<{ stores: GenericStore[]; sa: GenericStore; mem: MemoryStorage }> {
  const mem = new MemoryStorage();
  const stores = createStores(mem, builtinStrategies, '/registry');
  const ns = stores.find((s) => s.resource.resource === 'namespaces')!;
  const sa = stores.find((s) => s.resource.resource === 'serviceaccounts')!;
  await ns.create(systemContext(), { metadata: { name: 'bench' } });
  for (let i = 0; i < n; i++) await sa.create(systemContext('bench'), serviceAccount(i));
  return { stores, sa, mem };
}

test.each([
  ['JSON lists and GETs (stored bytes, served JSON rebuilt)', true],
  ['decoded lists and GETs (for comparison)', false],
])('%s: watch cache + memos per object', async (_name, json) => {
  const { stores, sa, mem } = await setup();
  const before = retained();
  await startCaches(stores);
  const ctx = systemContext('bench');
  // In a function of its own, so no list stays reachable from this one's suspended frame.
  const listAndGetAll = async (): Promise<number> => {
    const list = await listObjects(sa, { namespace: 'bench', source: { kind: 'latest' }, limit: 0, predicate: everything, rawJson: json });
    expect(list.items).toHaveLength(n);
    for (let i = 0; i < n; i++) {
      const name = `sa-${String(i).padStart(6, '0')}`;
      if (json) (await sa.getServed(ctx, name)).json();
      else void (await sa.getServed(ctx, name)).object;
    }
    return JSON.stringify(list.items).length / n;
  };
  let jsonBytes = 0;
  for (let round = 0; round < 2; round++) jsonBytes = await listAndGetAll();
  const perObject = (retained() - before) / n;
  report(`${_name}: ${n} objects of ${jsonBytes.toFixed(0)} B JSON: ${perObject.toFixed(0)} B retained per object = ${(perObject / jsonBytes).toFixed(2)}× the JSON`);
  if (json) expect(perObject).toBeLessThanOrEqual(2 * jsonBytes);
  // What the JSON memos avoid: decoded trees cost more than the JSON path's bound (3.00× on
  // 11-25 after the fifth pass on writes, above 3× before it; the JSON path is 0.17–0.26×).
  else expect(perObject).toBeGreaterThan(2 * jsonBytes);
  await closeCaches(stores);
  await mem.close();
}, 60_000);
