// The storage contract (DESIGN.md §2.8): one jest suite every Storage implementation passes —
// memory, etcd3, and the watch cache over each. Tests use their own key prefix, so a factory may
// hand out clients of one shared store; compaction tests compact that whole store to revisions
// they wrote, which never hides another test's later revisions.
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  KeyExistsError,
  KeyValue,
  NotFoundError,
  Storage,
} from '../storage';
import { keyAfter } from '../keys';
import { recordWatch } from './watchRecorder';

export interface StorageFixture {
  storage: Storage;
  teardown(): Promise<void>;
}

const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
const dec = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function expectRejects<E extends Error>(p: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(type);
    return err as E;
  }
  throw new Error(`expected ${type.name}, but the call succeeded`);
}

let suiteSeq = 0;

export function describeStorageContract(name: string, factory: () => Promise<StorageFixture>): void {
  describe(`storage contract: ${name}`, () => {
    let fixture: StorageFixture;
    let s: Storage;
    let p: string; // this test's key prefix
    let seq = 0;

    beforeEach(async () => {
      fixture = await factory();
      s = fixture.storage;
      p = `/contract/${process.pid}-${suiteSeq++}-${seq++}-${Math.random().toString(36).slice(2, 8)}/`;
    });
    afterEach(async () => {
      await fixture.teardown();
    });

    const counterUpdate = (cur: KeyValue | null): Uint8Array => enc(String(Number(cur ? dec(cur.value) : '0') + 1));

    test('create writes a new key and refuses an existing one', async () => {
      const before = await s.currentRevision();
      const kv = await s.create(p + 'a', enc('one'));
      expect(kv.key).toBe(p + 'a');
      expect(dec(kv.value)).toBe('one');
      expect(kv.modRevision).toBe(before + 1);
      expect(kv.createRevision).toBe(kv.modRevision);
      const err = await expectRejects(s.create(p + 'a', enc('two')), KeyExistsError);
      expect(err.key).toBe(p + 'a');
      expect(dec((await s.get(p + 'a')).kv!.value)).toBe('one');
      expect(await s.currentRevision()).toBe(before + 1);
    });

    test('create after delete makes a new incarnation', async () => {
      const first = await s.create(p + 'a', enc('1'));
      await s.delete(p + 'a');
      const second = await s.create(p + 'a', enc('2'));
      expect(second.createRevision).toBeGreaterThan(first.createRevision);
      expect(second.createRevision).toBe(second.modRevision);
    });

    test('get reads the latest value and values at past revisions', async () => {
      const created = await s.create(p + 'k', enc('v1'));
      const updated = await s.guaranteedUpdate(p + 'k', () => enc('v2'));
      expect(updated.modRevision).toBeGreaterThan(created.modRevision);
      expect(updated.createRevision).toBe(created.createRevision);

      const latest = await s.get(p + 'k');
      expect(dec(latest.kv!.value)).toBe('v2');
      expect(latest.kv!.modRevision).toBe(updated.modRevision);
      expect(latest.kv!.createRevision).toBe(created.modRevision);
      expect(latest.revision).toBeGreaterThanOrEqual(updated.modRevision);

      const past = await s.get(p + 'k', { revision: created.modRevision });
      expect(dec(past.kv!.value)).toBe('v1');
      expect(past.revision).toBe(created.modRevision);
      expect((await s.get(p + 'k', { revision: created.modRevision - 1 })).kv).toBeNull();

      const missing = await s.get(p + 'missing');
      expect(missing.kv).toBeNull();
      expect(missing.revision).toBeGreaterThanOrEqual(updated.modRevision);
    });

    test('currentRevision advances by one per write', async () => {
      const r0 = await s.currentRevision();
      await s.create(p + 'a', enc('x'));
      expect(await s.currentRevision()).toBe(r0 + 1);
      await s.guaranteedUpdate(p + 'a', () => enc('y'));
      expect(await s.currentRevision()).toBe(r0 + 2);
      const del = await s.delete(p + 'a');
      expect(del.revision).toBe(r0 + 3);
      expect(await s.currentRevision()).toBe(r0 + 3);
    });

    test('guaranteedUpdate with concurrent conflicting writers keeps every increment', async () => {
      await s.create(p + 'counter', enc('0'));
      let attempts = 0;
      const writers = 8;
      const perWriter = 5;
      await Promise.all(
        Array.from({ length: writers }, async () => {
          for (let i = 0; i < perWriter; i++) {
            await s.guaranteedUpdate(p + 'counter', async (cur) => {
              attempts++;
              await tick(); // let the other writers read the same value
              return counterUpdate(cur);
            });
          }
        }),
      );
      const final = await s.get(p + 'counter');
      expect(dec(final.kv!.value)).toBe(String(writers * perWriter));
      expect(attempts).toBeGreaterThan(writers * perWriter); // conflicts happened and were retried
    });

    test('guaranteedUpdate with expectedModRevision: match writes, mismatch is ConflictError', async () => {
      const kv = await s.create(p + 'a', enc('1'));
      const updated = await s.guaranteedUpdate(p + 'a', () => enc('2'), { expectedModRevision: kv.modRevision });
      expect(dec(updated.value)).toBe('2');
      let calls = 0;
      const err = await expectRejects(
        s.guaranteedUpdate(p + 'a', () => (calls++, enc('3')), { expectedModRevision: kv.modRevision }),
        ConflictError,
      );
      expect(err.actualModRevision).toBe(updated.modRevision);
      expect(calls).toBe(0);
      expect(dec((await s.get(p + 'a')).kv!.value)).toBe('2');
    });

    test('guaranteedUpdate with expectedModRevision does not retry a conflict during tryUpdate', async () => {
      const kv = await s.create(p + 'a', enc('1'));
      let calls = 0;
      const err = await expectRejects(
        s.guaranteedUpdate(
          p + 'a',
          async () => {
            calls++;
            await s.guaranteedUpdate(p + 'a', () => enc('other'));
            return enc('mine');
          },
          { expectedModRevision: kv.modRevision },
        ),
        ConflictError,
      );
      expect(calls).toBe(1);
      expect(err.actualModRevision).toBeGreaterThan(kv.modRevision);
      expect(dec((await s.get(p + 'a')).kv!.value)).toBe('other');
    });

    test('tryUpdate returning null or the same bytes writes nothing', async () => {
      const kv = await s.create(p + 'a', enc('same'));
      const r0 = await s.currentRevision();
      const unchanged = await s.guaranteedUpdate(p + 'a', () => null);
      expect(unchanged.modRevision).toBe(kv.modRevision);
      expect(dec(unchanged.value)).toBe('same');
      const same = await s.guaranteedUpdate(p + 'a', () => enc('same'));
      expect(same.modRevision).toBe(kv.modRevision);
      expect(await s.currentRevision()).toBe(r0);
    });

    test('tryUpdate throwing aborts the update', async () => {
      await s.create(p + 'a', enc('1'));
      const r0 = await s.currentRevision();
      await expect(
        s.guaranteedUpdate(p + 'a', () => {
          throw new Error('precondition failed');
        }),
      ).rejects.toThrow('precondition failed');
      await expect(s.guaranteedUpdate(p + 'a', async () => Promise.reject(new Error('async no')))).rejects.toThrow('async no');
      expect(await s.currentRevision()).toBe(r0);
      expect(dec((await s.get(p + 'a')).kv!.value)).toBe('1');
    });

    test('guaranteedUpdate with a stale or wrong suggestion decides on the current value', async () => {
      const first = await s.create(p + 'a', enc('1'));
      await s.guaranteedUpdate(p + 'a', () => enc('2'));
      // Stale: tryUpdate sees the current value before anything is written.
      const seen: string[] = [];
      const r = await s.guaranteedUpdate(p + 'a', (cur) => (seen.push(dec(cur!.value)), enc(`${dec(cur!.value)}+`)), { suggestion: first });
      expect(dec(r.value)).toBe('2+');
      expect(seen[seen.length - 1]).toBe('2');
      // A refusal on the stale value is decided again on the current one.
      const ok = await s.guaranteedUpdate(p + 'a', (cur) => {
        if (dec(cur!.value) !== '2+') throw new Error(`stale ${dec(cur!.value)}`);
        return enc('3');
      }, { suggestion: first });
      expect(dec(ok.value)).toBe('3');
      // "Absent" while the key exists: still an update, not NotFoundError or a create.
      const upd = await s.guaranteedUpdate(p + 'a', (cur) => enc(`${cur ? dec(cur.value) : 'none'}!`), { suggestion: null });
      expect(dec(upd.value)).toBe('3!');
      // "No change" on a stale value writes nothing only if the current value agrees.
      const same = await s.guaranteedUpdate(p + 'a', (cur) => (dec(cur!.value) === '1' ? null : enc('4')), { suggestion: first });
      expect(dec(same.value)).toBe('4');
      // A suggestion for a key deleted since: NotFoundError, or a create with ignoreNotFound.
      const last = (await s.get(p + 'a')).kv!;
      await s.delete(p + 'a');
      await expectRejects(s.guaranteedUpdate(p + 'a', () => enc('x'), { suggestion: last }), NotFoundError);
      const created = await s.guaranteedUpdate(p + 'a', (cur) => enc(cur ? 'stale' : 'fresh'), { suggestion: last, ignoreNotFound: true });
      expect(dec(created.value)).toBe('fresh');
      expect(created.createRevision).toBe(created.modRevision);
    });

    test('guaranteedUpdate of a missing key: NotFoundError, or a create with ignoreNotFound', async () => {
      await expectRejects(s.guaranteedUpdate(p + 'none', counterUpdate), NotFoundError);
      let seen: KeyValue | null | undefined;
      const kv = await s.guaranteedUpdate(
        p + 'none',
        (cur) => {
          seen = cur;
          return enc('new');
        },
        { ignoreNotFound: true },
      );
      expect(seen).toBeNull();
      expect(kv.createRevision).toBe(kv.modRevision);
      expect(dec((await s.get(p + 'none')).kv!.value)).toBe('new');
      await expectRejects(s.guaranteedUpdate(p + 'none2', () => null, { ignoreNotFound: true }), NotFoundError);
    });

    test('delete with a stale or refused suggestion decides on the current value', async () => {
      // Stale: what is deleted (and returned) is the current value.
      const a1 = await s.create(p + 'a', enc('1'));
      const a2 = await s.guaranteedUpdate(p + 'a', () => enc('2'));
      const delA = await s.delete(p + 'a', { suggestion: a1 });
      expect([dec(delA.prev.value), delA.prev.modRevision]).toEqual(['2', a2.modRevision]);
      expect((await s.get(p + 'a')).kv).toBeNull();
      // A refusal on the stale value is decided again on the current one.
      const b1 = await s.create(p + 'b', enc('1'));
      await s.guaranteedUpdate(p + 'b', () => enc('2'));
      const seen: string[] = [];
      const validate = (cur: KeyValue): void => {
        seen.push(dec(cur.value));
        if (dec(cur.value) !== '2') throw new Error('refused');
      };
      const delB = await s.delete(p + 'b', { suggestion: b1, validate });
      expect(dec(delB.prev.value)).toBe('2');
      expect(seen[seen.length - 1]).toBe('2');
      // A refusal on the current value stands, and nothing is deleted.
      const c = await s.create(p + 'c', enc('1'));
      await expect(s.delete(p + 'c', { suggestion: c, validate })).rejects.toThrow('refused');
      expect(dec((await s.get(p + 'c')).kv!.value)).toBe('1');
      // A suggestion for a key deleted since: NotFoundError.
      const d = await s.create(p + 'd', enc('1'));
      await s.delete(p + 'd');
      await expectRejects(s.delete(p + 'd', { suggestion: d }), NotFoundError);
    });

    test('delete returns the previous value; missing key is NotFoundError', async () => {
      const kv = await s.create(p + 'a', enc('1'));
      const del = await s.delete(p + 'a');
      expect(dec(del.prev.value)).toBe('1');
      expect(del.prev.modRevision).toBe(kv.modRevision);
      expect(del.revision).toBeGreaterThan(kv.modRevision);
      expect((await s.get(p + 'a')).kv).toBeNull();
      const err = await expectRejects(s.delete(p + 'a'), NotFoundError);
      expect(err.key).toBe(p + 'a');
    });

    test('delete with validate: throwing aborts, a concurrent change re-validates', async () => {
      await s.create(p + 'a', enc('1'));
      await expect(
        s.delete(p + 'a', {
          validate: () => {
            throw new Error('uid mismatch');
          },
        }),
      ).rejects.toThrow('uid mismatch');
      expect(dec((await s.get(p + 'a')).kv!.value)).toBe('1');

      const seen: string[] = [];
      const del = await s.delete(p + 'a', {
        validate: async (cur) => {
          seen.push(dec(cur.value));
          if (seen.length === 1) await s.guaranteedUpdate(p + 'a', () => enc('2'));
        },
      });
      expect(seen).toEqual(['1', '2']);
      expect(dec(del.prev.value)).toBe('2');
      expect((await s.get(p + 'a')).kv).toBeNull();
    });

    test('list returns the prefix in byte order, nothing outside it', async () => {
      // Byte order differs from JS string order for astral characters vs U+E000–FFFF.
      const names = ['b', 'a', 'a/b', 'A', '\u00e9', '\uffff', '\u{1f600}', 'a0'];
      for (const n of names) await s.create(p + 'x/' + n, enc(n));
      await s.create(p + 'x', enc('not under x/'));
      await s.create(p + 'y/a', enc('sibling'));
      const res = await s.list(p + 'x/');
      const bytewise = [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      expect(res.kvs.map((kv) => kv.key.slice((p + 'x/').length))).toEqual(bytewise);
      expect(res.count).toBe(names.length);
      expect(res.more).toBe(false);
      expect(res.revision).toBe(await s.currentRevision());
    });

    test('list at a revision with limit, startKey, more and count', async () => {
      for (let i = 0; i < 5; i++) await s.create(`${p}k${i}`, enc(`v${i}`));
      const r = await s.currentRevision();
      await s.delete(p + 'k1');
      await s.guaranteedUpdate(p + 'k2', () => enc('changed'));
      await s.create(p + 'k5', enc('v5'));

      const page1 = await s.list(p, { revision: r, limit: 2 });
      expect(page1.kvs.map((kv) => dec(kv.value))).toEqual(['v0', 'v1']);
      expect(page1).toMatchObject({ revision: r, more: true, count: 5 });
      const page2 = await s.list(p, { revision: r, limit: 2, startKey: keyAfter(page1.kvs[1].key) });
      expect(page2.kvs.map((kv) => dec(kv.value))).toEqual(['v2', 'v3']);
      expect(page2).toMatchObject({ revision: r, more: true, count: 3 });
      const page3 = await s.list(p, { revision: r, limit: 2, startKey: keyAfter(page2.kvs[1].key) });
      expect(page3.kvs.map((kv) => dec(kv.value))).toEqual(['v4']);
      expect(page3).toMatchObject({ revision: r, more: false, count: 1 });

      const now = await s.list(p, { limit: 10 });
      expect(now.kvs.map((kv) => dec(kv.value))).toEqual(['v0', 'changed', 'v3', 'v4', 'v5']);
      expect(now.count).toBe(5);
      await expect(s.list(p, { startKey: '/elsewhere' })).rejects.toThrow(/outside prefix/);
    });

    test('paging over 120 keys sees one consistent snapshot while writes happen', async () => {
      const n = 120;
      await Promise.all(Array.from({ length: n }, (_, i) => s.create(`${p}item-${String(i).padStart(3, '0')}`, enc(`orig-${i}`))));
      const first = await s.list(p, { limit: 25 });
      const r = first.revision;
      expect(first.count).toBe(n);
      let stop = false;
      let writes = 0;
      const writer = (async () => {
        for (let i = 0; !stop; i = (i + 7) % n) {
          const key = `${p}item-${String(i).padStart(3, '0')}`;
          if (writes % 3 === 2) await s.delete(key).catch(() => undefined);
          else await s.guaranteedUpdate(key, () => enc(`new-${writes}`), { ignoreNotFound: true });
          await s.create(`${p}item-${String(i).padStart(3, '0')}-extra${writes}`, enc('extra'));
          writes++;
          await tick(); // an in-memory store never yields on its own
        }
      })();
      const seen = [...first.kvs];
      let page = first;
      while (page.more) {
        await sleep(2);
        page = await s.list(p, { revision: r, limit: 25, startKey: keyAfter(page.kvs[page.kvs.length - 1].key) });
        expect(page.revision).toBe(r);
        seen.push(...page.kvs);
      }
      stop = true;
      await writer;
      expect(writes).toBeGreaterThan(0);
      expect(seen.map((kv) => dec(kv.value))).toEqual(Array.from({ length: n }, (_, i) => `orig-${i}`));
      expect(seen.every((kv) => kv.modRevision <= r)).toBe(true);
    });

    test('watch from a revision replays puts and deletes, then streams live', async () => {
      const a1 = await s.create(p + 'a', enc('a1'));
      const a2 = await s.guaranteedUpdate(p + 'a', () => enc('a2'));
      const b1 = await s.create(p + 'b', enc('b1'));
      const delA = await s.delete(p + 'a');
      await s.create(p.slice(0, -1) + 'other/x', enc('outside'));

      const w = recordWatch(s, p, { startRevision: a1.modRevision });
      await w.waitForEvents(4);
      const c1 = await s.create(p + 'c', enc('c1'));
      await w.waitForEvents(5);
      w.close();
      const ev = w.events;
      expect(ev.map((e) => [e.type, e.key, dec(e.value), e.modRevision])).toEqual([
        ['put', p + 'a', 'a1', a1.modRevision],
        ['put', p + 'a', 'a2', a2.modRevision],
        ['put', p + 'b', 'b1', b1.modRevision],
        ['delete', p + 'a', 'a2', delA.revision],
        ['put', p + 'c', 'c1', c1.modRevision],
      ]);
      expect(ev[0].createRevision).toBe(a1.modRevision);
      expect(ev[0].prevValue).toBeUndefined();
      expect(ev[1].createRevision).toBe(a1.modRevision);
      expect(dec(ev[1].prevValue!)).toBe('a1');
      expect(ev[1].prevModRevision).toBe(a1.modRevision);
      expect(dec(ev[3].prevValue!)).toBe('a2');
      expect(ev[3].prevModRevision).toBe(a2.modRevision);
      expect(ev[3].createRevision).toBe(a1.modRevision);
      expect(w.error).toBeUndefined();
    });

    test('watch without a start revision sees only later changes; exact-key watch sees one key', async () => {
      await s.create(p + 'a', enc('old'));
      const all = recordWatch(s, p, {});
      const exact = recordWatch(s, p + 'a', { prefix: false });
      await sleep(50); // let remote watches get established
      await s.create(p + 'ab', enc('ab'));
      const upd = await s.guaranteedUpdate(p + 'a', () => enc('new'));
      await all.waitForEvents(2);
      await exact.waitForEvents(1);
      await sleep(30);
      expect(all.events.map((e) => e.key)).toEqual([p + 'ab', p + 'a']);
      expect(exact.events.map((e) => [e.key, dec(e.value), e.modRevision])).toEqual([[p + 'a', 'new', upd.modRevision]]);
      all.close();
      exact.close();
    });

    test('watch close stops delivery', async () => {
      const r = await s.currentRevision();
      const w = recordWatch(s, p, { startRevision: r + 1 });
      await s.create(p + 'a', enc('1'));
      await w.waitForEvents(1);
      w.close();
      w.close(); // idempotent
      await s.create(p + 'b', enc('2'));
      await s.delete(p + 'a');
      await sleep(100);
      expect(w.events).toHaveLength(1);
      expect(w.error).toBeUndefined();
    });

    test('a watch closed before its replay is delivered calls no handler', async () => {
      await s.create(p + 'a', enc('1'));
      const r = await s.currentRevision();
      const w = recordWatch(s, p, { startRevision: r - 1 });
      w.close();
      await sleep(100);
      expect(w.events).toHaveLength(0);
      expect(w.error).toBeUndefined();
    });

    test('a handler that throws ends only its own watch', async () => {
      const r = await s.currentRevision();
      let thrownTo: Error | undefined;
      let calls = 0;
      const bad = s.watch(p, { startRevision: r + 1 }, {
        onEvents: () => {
          calls++;
          throw new Error('handler bug');
        },
        onError: (e) => (thrownTo = e),
      });
      const good = recordWatch(s, p, { startRevision: r + 1 });
      await s.create(p + 'a', enc('1'));
      await good.waitForEvents(1);
      await s.create(p + 'b', enc('2'));
      await good.waitForEvents(2);
      await sleep(50);
      expect(calls).toBe(1);
      expect(thrownTo?.message).toBe('handler bug');
      expect(good.error).toBeUndefined();
      bad.close();
      good.close();
    });

    test('compaction: reads and watches below the compact revision fail with CompactedError', async () => {
      const v1 = await s.create(p + 'a', enc('1'));
      const v2 = await s.guaranteedUpdate(p + 'a', () => enc('2'));
      await s.create(p + 'b', enc('b'));
      const v3 = await s.guaranteedUpdate(p + 'a', () => enc('3'));
      await s.compact(v2.modRevision);

      const getErr = await expectRejects(s.get(p + 'a', { revision: v1.modRevision }), CompactedError);
      expect(getErr.requestedRevision).toBe(v1.modRevision);
      expect(getErr.compactRevision).toBe(v2.modRevision);
      const listErr = await expectRejects(s.list(p, { revision: v1.modRevision }), CompactedError);
      expect(listErr.compactRevision).toBe(v2.modRevision);
      // At and after the compact revision history is still there.
      expect(dec((await s.get(p + 'a', { revision: v2.modRevision })).kv!.value)).toBe('2');
      expect((await s.list(p, { revision: v2.modRevision })).kvs.map((kv) => dec(kv.value))).toEqual(['2']);
      expect(dec((await s.get(p + 'a')).kv!.value)).toBe('3');

      const w = recordWatch(s, p, { startRevision: v1.modRevision });
      await w.waitFor(() => w.error !== undefined);
      expect(w.error).toBeInstanceOf(CompactedError);
      expect((w.error as CompactedError).compactRevision).toBe(v2.modRevision);
      expect(w.events).toHaveLength(0);
      w.close();

      const ok = recordWatch(s, p, { startRevision: v2.modRevision + 1 });
      await ok.waitForEvents(2);
      expect(ok.events.map((e) => e.modRevision)).toEqual([v2.modRevision + 1, v3.modRevision]);
      ok.close();

      const again = await expectRejects(s.compact(v2.modRevision), CompactedError);
      expect(again.compactRevision).toBe(v2.modRevision);
      await expectRejects(s.compact((await s.currentRevision()) + 10), FutureRevisionError);
    });

    test('reads at a future revision fail with FutureRevisionError', async () => {
      await s.create(p + 'a', enc('1'));
      const cur = await s.currentRevision();
      const err = await expectRejects(s.get(p + 'a', { revision: cur + 100 }), FutureRevisionError);
      expect(err.requestedRevision).toBe(cur + 100);
      expect(err.currentRevision).toBe(cur);
      await expectRejects(s.list(p, { revision: cur + 100 }), FutureRevisionError);
    });

    test('requestProgress reports a revision every earlier event was delivered by', async () => {
      const w = recordWatch(s, p, {});
      await sleep(50);
      const kv = await s.create(p + 'a', enc('1'));
      await w.waitForEvents(1);
      s.requestProgress();
      await w.waitFor(() => w.progress.length > 0);
      expect(w.progress[0]).toBeGreaterThanOrEqual(kv.modRevision);
      w.close();
    });
  });
}
