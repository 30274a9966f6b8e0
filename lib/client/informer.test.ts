import type { ApiList, ApiObject, Status } from '../api/meta';
import { ClientApiError, ClientTransportError } from './errors';
import { FakeClock, flushPromises } from './fakeClock';
import { Informer, objectKey, VeryShortWatchError } from './informer';
import type { ListWatch } from './listWatch';
import type { ListOptions } from './resourcePath';
import type { WatchEvent, WatchStream } from './watchStream';

type Obj = ApiObject;

const obj = (name: string, rv: string, extra: Record<string, unknown> = {}): Obj => ({
  kind: 'Thing',
  metadata: { name, namespace: 'ns', resourceVersion: rv },
  ...extra,
});
const bookmark = (rv: string): Obj => ({ kind: 'Thing', metadata: { resourceVersion: rv } });
const list = (rv: string, items: Obj[], cont?: string): ApiList<Obj> => ({
  apiVersion: 'v1',
  kind: 'ThingList',
  metadata: { resourceVersion: rv, ...(cont ? { continue: cont } : {}) },
  items,
});
const statusError = (code: number, reason: Status['reason'], message = reason ?? ''): ClientApiError =>
  new ClientApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

/** A watch the test feeds by hand. */
class FakeWatch implements WatchStream<Obj> {
  stopped = false;
  private queue: Array<WatchEvent<Obj> | Error | 'end'> = [];
  private waiter?: () => void;

  push(type: WatchEvent['type'], object: Obj): void {
    this.enqueue({ type, object });
  }
  fail(e: Error): void {
    this.enqueue(e);
  }
  end(): void {
    this.enqueue('end');
  }
  stop(): void {
    this.stopped = true;
    this.enqueue('end');
  }
  private enqueue(x: WatchEvent<Obj> | Error | 'end'): void {
    this.queue.push(x);
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }
  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<Obj>> {
    return {
      next: async () => {
        for (;;) {
          const x = this.queue.shift();
          if (x === 'end') return { done: true, value: undefined };
          if (x instanceof Error) throw x;
          if (x) return { done: false, value: x };
          await new Promise<void>((r) => (this.waiter = r));
        }
      },
    };
  }
}

class FakeListWatch implements ListWatch<Obj> {
  listCalls: ListOptions[] = [];
  watchCalls: ListOptions[] = [];
  watches: FakeWatch[] = [];
  /** Answers to list calls, in order; the last one repeats. */
  lists: Array<ApiList<Obj> | Error> = [];
  /** Errors for the next watch calls (a FakeWatch otherwise). */
  watchErrors: Error[] = [];

  async list(opts: ListOptions): Promise<ApiList<Obj>> {
    this.listCalls.push(opts);
    const answer = this.lists.length > 1 ? this.lists.shift() : this.lists[0];
    if (!answer) throw new Error('no list answer');
    if (answer instanceof Error) throw answer;
    return structuredClone(answer);
  }

  async watch(opts: ListOptions): Promise<WatchStream<Obj>> {
    this.watchCalls.push(opts);
    const e = this.watchErrors.shift();
    if (e) throw e;
    const w = new FakeWatch();
    this.watches.push(w);
    return w;
  }

  get current(): FakeWatch {
    return this.watches[this.watches.length - 1];
  }
}

interface Recorded {
  log: string[];
  errors: unknown[];
}

function setup(random = 0): { lw: FakeListWatch; clock: FakeClock; informer: Informer<Obj>; rec: Recorded } {
  const lw = new FakeListWatch();
  const clock = new FakeClock();
  const rec: Recorded = { log: [], errors: [] };
  const informer = new Informer<Obj>({ listWatch: lw, clock, random: () => random, onError: (e) => rec.errors.push(e) });
  informer.addEventHandler({
    onAdd: (o, initial) => rec.log.push(`add ${objectKey(o)}@${o.metadata?.resourceVersion}${initial ? ' initial' : ''}`),
    onUpdate: (a, b) => rec.log.push(`update ${objectKey(b)} ${a.metadata?.resourceVersion}->${b.metadata?.resourceVersion}`),
    onDelete: (o, unknown) => rec.log.push(`delete ${objectKey(o)}@${o.metadata?.resourceVersion}${unknown ? ' final-state-unknown' : ''}`),
  });
  return { lw, clock, informer, rec };
}

const storeRVs = (i: Informer<Obj>): Record<string, string | undefined> =>
  Object.fromEntries(i.list().map((o) => [objectKey(o), o.metadata?.resourceVersion]));

describe('Informer', () => {
  it('lists, then watches from the list resourceVersion, keeping the store and telling handlers', async () => {
    const { lw, informer, rec } = setup(0.5);
    lw.lists = [list('10', [obj('a', '5'), obj('b', '7')])];
    informer.start();
    expect(await informer.waitForSync()).toBe(true);
    expect(informer.hasSynced()).toBe(true);
    await flushPromises();
    expect(lw.listCalls).toEqual([{ resourceVersion: '0', limit: 500 }]);
    expect(lw.watchCalls).toEqual([{ resourceVersion: '10', timeoutSeconds: 450, allowWatchBookmarks: true }]);

    lw.current.push('ADDED', obj('c', '11'));
    lw.current.push('MODIFIED', obj('a', '12'));
    lw.current.push('DELETED', obj('b', '13'));
    await flushPromises();
    expect(rec.log).toEqual(['add ns/a@5 initial', 'add ns/b@7 initial', 'add ns/c@11', 'update ns/a 5->12', 'delete ns/b@13']);
    expect(storeRVs(informer)).toEqual({ 'ns/a': '12', 'ns/c': '11' });
    expect(informer.getByName('a', 'ns')?.metadata?.resourceVersion).toBe('12');
    expect(informer.lastSyncResourceVersion()).toBe('13');
    await informer.stop();
    expect(lw.current.stopped).toBe(true);
  });

  it('follows continue tokens in pages of 500', async () => {
    const { lw, informer } = setup();
    lw.lists = [list('20', [obj('a', '1')], 'tok-1'), list('20', [obj('b', '2')], 'tok-2'), list('20', [obj('c', '3')])];
    informer.start();
    await informer.waitForSync();
    expect(lw.listCalls).toEqual([{ resourceVersion: '0', limit: 500 }, { limit: 500, continue: 'tok-1' }, { limit: 500, continue: 'tok-2' }]);
    expect(informer.keys()).toEqual(['ns/a', 'ns/b', 'ns/c']);
    expect(informer.lastSyncResourceVersion()).toBe('20');
    await informer.stop();
  });

  it('falls back to one full list when the continue token expired', async () => {
    const { lw, informer } = setup();
    lw.lists = [list('20', [obj('a', '1')], 'tok-1'), statusError(410, 'Expired'), list('25', [obj('a', '1'), obj('b', '24')])];
    informer.start();
    await informer.waitForSync();
    expect(lw.listCalls).toEqual([{ resourceVersion: '0', limit: 500 }, { limit: 500, continue: 'tok-1' }, {}]);
    expect(informer.keys()).toEqual(['ns/a', 'ns/b']);
    expect(informer.lastSyncResourceVersion()).toBe('25');
    await informer.stop();
  });

  it('resumes from the last resourceVersion seen, bookmarks included, without relisting', async () => {
    const { lw, clock, informer, rec } = setup();
    lw.lists = [list('10', [obj('a', '5')])];
    informer.start();
    await informer.waitForSync();
    await flushPromises();
    lw.current.push('MODIFIED', obj('a', '12'));
    lw.current.push('BOOKMARK', bookmark('15'));
    lw.current.end(); // the server closed the stream (timeout, restart)
    await flushPromises();
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['10', '15']);
    expect(lw.listCalls).toHaveLength(1);
    expect(clock.requestedDelays).toEqual([]); // no backoff for a clean end
    expect(rec.log).toEqual(['add ns/a@5 initial', 'update ns/a 5->12']);

    // An idle stream that ran for a while also resumes.
    await clock.advance(60_000);
    lw.current.end();
    await flushPromises();
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['10', '15', '15']);
    expect(lw.listCalls).toHaveLength(1);
    await informer.stop();
  });

  it('relists on 410 after a backoff, synthesising deletes and updates for what changed', async () => {
    const { lw, clock, informer, rec } = setup();
    lw.lists = [list('10', [obj('a', '5'), obj('b', '6'), obj('c', '7')]), list('40', [obj('a', '30'), obj('c', '7'), obj('d', '35')])];
    informer.start();
    await informer.waitForSync();
    await flushPromises();
    lw.current.push('MODIFIED', obj('b', '12'));
    lw.current.fail(statusError(410, 'Expired', 'too old resource version: 12 (20)'));
    await flushPromises();
    expect(lw.listCalls).toHaveLength(1);
    expect(clock.nextDelay()).toBe(800);
    await clock.advance(800);
    // Relist at the last RV seen, unpaged (served from the watch cache), then watch from the new list.
    expect(lw.listCalls).toEqual([{ resourceVersion: '0', limit: 500 }, { resourceVersion: '12' }]);
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['10', '40']);
    expect(rec.log).toEqual([
      'add ns/a@5 initial',
      'add ns/b@6 initial',
      'add ns/c@7 initial',
      'update ns/b 6->12',
      'update ns/a 5->30',
      'add ns/d@35',
      'delete ns/b@12 final-state-unknown',
    ]);
    expect(storeRVs(informer)).toEqual({ 'ns/a': '30', 'ns/c': '7', 'ns/d': '35' });
    expect(rec.errors).toEqual([]); // a 410 is routine, not an error
    await informer.stop();
  });

  it('lists from etcd ("") when the relist resourceVersion is gone too', async () => {
    const { lw, clock, informer } = setup();
    lw.lists = [list('10', []), statusError(410, 'Expired'), list('50', [obj('z', '49')])];
    informer.start();
    await informer.waitForSync();
    await flushPromises();
    lw.current.fail(statusError(410, 'Gone'));
    await clock.advance(800);
    // Same page size as the failed attempt (unpaged, as client-go reuses its pager), at "".
    expect(lw.listCalls).toEqual([{ resourceVersion: '0', limit: 500 }, { resourceVersion: '10' }, {}]);
    expect(informer.keys()).toEqual(['ns/z']);
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['10', '50']);
    await informer.stop();
  });

  it('backs off between failed lists: 0.8 s doubling to 30 s', async () => {
    const { lw, clock, informer, rec } = setup();
    lw.lists = [statusError(500, 'InternalError')];
    informer.start();
    for (let i = 0; i < 9; i++) await clock.fireNext();
    // Ten failed lists, each followed by a backoff (the tenth still pending).
    expect(clock.requestedDelays).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000, 30000]);
    expect(lw.listCalls).toHaveLength(10);
    expect(rec.errors).toHaveLength(10);
    expect(informer.hasSynced()).toBe(false);
    await informer.stop();
  });

  it('retries a refused or throttled watch with backoff, keeping its state', async () => {
    const { lw, clock, informer } = setup();
    lw.lists = [list('10', [obj('a', '5')])];
    lw.watchErrors = [new ClientTransportError('connect ECONNREFUSED', { code: 'ECONNREFUSED' }), statusError(429, 'TooManyRequests')];
    informer.start();
    await informer.waitForSync();
    await clock.fireNext();
    await clock.fireNext();
    expect(clock.requestedDelays).toEqual([800, 1600]);
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['10', '10', '10']);
    expect(lw.listCalls).toHaveLength(1);
    await informer.stop();
  });

  it('relists after other watch failures, reporting them', async () => {
    const { lw, clock, informer, rec } = setup();
    lw.lists = [list('10', [])];
    lw.watchErrors = [statusError(403, 'Forbidden')];
    informer.start();
    await informer.waitForSync();
    await clock.fireNext();
    expect(lw.listCalls).toHaveLength(2);
    expect(rec.errors).toHaveLength(1);
    // A stream that closes at once with nothing in it is suspicious: relist too.
    lw.current.end();
    await clock.fireNext();
    expect(rec.errors[1]).toBeInstanceOf(VeryShortWatchError);
    expect(lw.listCalls).toHaveLength(3);
    await informer.stop();
  });

  it('stops promptly: pending backoff, open watch, waiters', async () => {
    const { lw, clock, informer } = setup();
    lw.lists = [statusError(500, 'InternalError')];
    informer.start();
    const synced = informer.waitForSync();
    await flushPromises();
    expect(clock.pendingCount()).toBe(1);
    await informer.stop();
    expect(await synced).toBe(false);
    expect(clock.pendingCount()).toBe(0);
    expect(await informer.waitForSync()).toBe(false);
  });

  it('replays known objects to late handlers and survives a throwing handler', async () => {
    const { lw, informer, rec } = setup();
    lw.lists = [list('10', [obj('a', '5')])];
    informer.start();
    await informer.waitForSync();
    await flushPromises();
    const late: string[] = [];
    informer.addEventHandler({
      onAdd: (o, initial) => {
        late.push(`${objectKey(o)} ${initial}`);
        throw new Error('handler bug');
      },
    });
    lw.current.push('ADDED', obj('b', '11'));
    await flushPromises();
    expect(late).toEqual(['ns/a true', 'ns/b false']);
    expect(rec.log).toEqual(['add ns/a@5 initial', 'add ns/b@11']);
    expect(rec.errors.map((e) => (e as Error).message)).toEqual(['handler bug', 'handler bug']);
    await informer.stop();
  });
});
