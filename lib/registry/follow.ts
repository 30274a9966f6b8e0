// In-process followers of a store (the server's own informers): the full state once, then every
// change, from the watch cache. Used for state the server consults on every request (RBAC
// policy) so that no request reads etcd. A broken watch restarts with a fresh full state.
import type { ApiObject } from '../api';
import { everything } from './predicate';
import type { GenericStore } from './store';
import { ApiWatch, ApiWatchEvent, watchObjects } from './watch';

export interface FollowHandlers {
  /** The complete current state (first sync, and after every restart). */
  replace(objects: ApiObject[]): void;
  upsert(obj: ApiObject): void;
  remove(obj: ApiObject): void;
  onError?(err: Error): void;
}

export interface Follower {
  /** Resolves after the first complete state was handed over. */
  readonly synced: Promise<void>;
  stop(): void;
}

const restartDelayMs = 500;

export function followStore(store: GenericStore, h: FollowHandlers): Follower {
  let stopped = false;
  let current: ApiWatch | undefined;
  let timer: NodeJS.Timeout | undefined;
  let markSynced: () => void = () => {};
  const synced = new Promise<void>((resolve) => (markSynced = resolve));

  const start = (): void => {
    if (stopped) return;
    let initial: ApiObject[] | null = [];
    const handle = (e: ApiWatchEvent): void => {
      if (e.type === 'BOOKMARK') {
        if (initial) {
          h.replace(initial);
          initial = null;
          markSynced();
        }
        return;
      }
      if (e.type === 'ERROR') return;
      const obj = e.object as ApiObject;
      if (initial) initial.push(obj);
      else if (e.type === 'DELETED') h.remove(obj);
      else h.upsert(obj);
    };
    watchObjects(store, { namespace: '', predicate: everything, initialConsistency: 'any', initialEventsEndBookmark: true }, {
      send(events) {
        for (const e of events) handle(e);
        return true;
      },
      onDrain() {},
      end() {
        current = undefined;
        if (!stopped) timer = setTimeout(start, restartDelayMs);
      },
    }).then(
      (w) => {
        current = w;
        if (stopped) w.stop();
      },
      (err: Error) => {
        h.onError?.(err);
        if (!stopped) timer = setTimeout(start, restartDelayMs);
      },
    );
  };
  start();

  return {
    synced,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      current?.stop();
    },
  };
}
