import { MemoryStorage } from './memory';
import { describeStorageContract } from './testing/contract';
import { recordWatch } from './testing/watchRecorder';

describeStorageContract('memory', async () => {
  const storage = new MemoryStorage();
  return { storage, teardown: () => storage.close() };
});

describe('MemoryStorage specifics', () => {
  const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s));

  test('an empty store is at revision 1, like etcd', async () => {
    const s = new MemoryStorage();
    expect(await s.currentRevision()).toBe(1);
    expect((await s.create('/a', enc('x'))).modRevision).toBe(2);
  });

  test('compaction drops deleted keys and old states', async () => {
    const s = new MemoryStorage();
    await s.create('/a', enc('1'));
    await s.delete('/a');
    await s.create('/b', enc('1'));
    await s.guaranteedUpdate('/b', () => enc('2'));
    await s.compact(await s.currentRevision());
    expect((await s.list('/')).kvs.map((kv) => kv.key)).toEqual(['/b']);
    expect((await s.get('/b')).kv!.createRevision).toBe(4);
  });

  test('writes copy the caller buffer', async () => {
    const s = new MemoryStorage();
    const buf = enc('abc');
    await s.create('/a', buf);
    buf[0] = 0x7a;
    expect(Buffer.from((await s.get('/a')).kv!.value).toString()).toBe('abc');
  });

  test('putIfVersion follows the per-key version', async () => {
    const s = new MemoryStorage();
    expect(await s.putIfVersion('k', 0, enc('1'))).toEqual({ succeeded: true, version: 1, revision: 2 });
    expect(await s.putIfVersion('k', 0, enc('2'))).toEqual({ succeeded: false, version: 1, revision: 2 });
    expect(await s.putIfVersion('k', 1, enc('2'))).toEqual({ succeeded: true, version: 2, revision: 3 });
  });

  test('progressNotify sends progress to an idle watch', async () => {
    const s = new MemoryStorage({ progressNotifyIntervalMs: 20 });
    await s.create('/a', enc('1'));
    const w = recordWatch(s, '/', { progressNotify: true });
    await w.waitFor(() => w.progress.length >= 2);
    expect(w.progress[0]).toBe(2);
    w.close();
  });

  test('close stops watches and refuses calls', async () => {
    const s = new MemoryStorage();
    const w = recordWatch(s, '/', {});
    await s.close();
    await expect(s.get('/a')).rejects.toThrow('closed');
    expect(w.error).toBeUndefined();
  });
});
