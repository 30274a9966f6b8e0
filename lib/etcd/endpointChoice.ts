// Which etcd endpoint gets the next call. A member cut off by the network keeps its connection
// READY until keepalive notices (10 s + 5 s, wire/http2Connection.ts): calls sent to it hang
// until then or their deadline. So besides the channel state, the pool looks at the oldest call still
// waiting on each endpoint: one waiting longer than `stalledAfterMs` marks the endpoint stalled,
// and new calls go to the others while any of them is READY and not stalled.
export interface EndpointView {
  ready: boolean;
  /** Start time (ms) of the oldest call still in flight on it, if any. */
  oldestInflightSince?: number;
}

export const stalledAfterMs = 1000;

export function isStalled(e: EndpointView, now: number, after = stalledAfterMs): boolean {
  return e.oldestInflightSince !== undefined && now - e.oldestInflightSince > after;
}

/**
 * Round-robin from `start`: the first READY endpoint not stalled, else the first READY one
 * (everything stalled: a slow etcd is still better than none), else undefined.
 */
export function chooseEndpoint(views: EndpointView[], start: number, now: number, after = stalledAfterMs): number | undefined {
  const n = views.length;
  let fallback: number | undefined;
  for (let i = 0; i < n; i++) {
    const idx = (start + i) % n;
    const v = views[idx];
    if (!v.ready) continue;
    if (!isStalled(v, now, after)) return idx;
    fallback ??= idx;
  }
  return fallback;
}
