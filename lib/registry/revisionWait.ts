// Reads of a future resourceVersion wait briefly for etcd to reach it (watch-and-list.md §5).
import type { Storage } from '../etcd/storage';
import { errors } from '../machinery/errors';

/** How long a read waits for a future revision before answering 504. */
export const futureRevisionWait = { timeoutMs: 3000, pollMs: 50 };

/** Waits until the store reaches rv; 504 "Too large resource version" when it does not. */
export async function waitForRevision(storage: Storage, rv: number): Promise<number> {
  const deadline = Date.now() + futureRevisionWait.timeoutMs;
  for (;;) {
    const cur = await storage.currentRevision();
    if (cur >= rv) return cur;
    if (Date.now() >= deadline) throw errors.tooLargeResourceVersion(rv, cur, 1);
    await new Promise((r) => setTimeout(r, futureRevisionWait.pollMs));
  }
}
