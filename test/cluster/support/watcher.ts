// A watch client as informers use it: when the stream ends (its apiserver died, the proxy cut it),
// it opens a new one from the last resourceVersion it saw (events and bookmarks), through the load
// balancer. It records every event, every reconnection gap and any error event, so a test can
// check that each change arrived exactly once and in order, without a 410.
import type { ClusterClient } from './client';

export interface SeenEvent {
  type: string;
  name: string;
  resourceVersion: string;
  object: Record<string, unknown>;
}

interface WireEvent {
  type: string;
  object: { metadata?: { name?: string; resourceVersion?: string }; code?: number; reason?: string; message?: string };
}

export class ResumingWatcher {
  readonly events: SeenEvent[] = [];
  /** ERROR events (a 410 Expired among them would mean the resume failed). */
  readonly errors: WireEvent['object'][] = [];
  /** Non-200 answers to a (re)connect. */
  readonly refused: number[] = [];
  /** [ended, resumed] times (ms) of every reconnection. */
  readonly gaps: [number, number][] = [];
  /** Whether a stream is open (answered 200 and not ended). */
  connected = false;
  private lastRv: string;
  private stopped = false;
  private abort?: () => void;
  private endedAt?: number;

  constructor(
    private readonly client: ClusterClient,
    private readonly path: string,
    startRv: string,
  ) {
    this.lastRv = startRv;
  }

  get resourceVersion(): string {
    return this.lastRv;
  }

  start(): void {
    if (this.stopped) return;
    const sep = this.path.includes('?') ? '&' : '?';
    this.abort = this.client.stream(`${this.path}${sep}watch=1&allowWatchBookmarks=true&resourceVersion=${this.lastRv}`, {
      status: (code) => {
        if (code !== 200) {
          this.refused.push(code);
          return;
        }
        this.connected = true;
        if (this.endedAt !== undefined) this.gaps.push([this.endedAt, Date.now()]);
        this.endedAt = undefined;
      },
      line: (text) => this.onLine(text),
      end: () => {
        this.connected = false;
        if (this.stopped) return;
        this.endedAt ??= Date.now();
        setTimeout(() => this.start(), 100);
      },
    });
  }

  private onLine(text: string): void {
    let e: WireEvent;
    try {
      e = JSON.parse(text) as WireEvent;
    } catch {
      // a non-watch body (an error page of a refused connect)
      return;
    }
    if (e.type === 'ERROR') {
      this.errors.push(e.object);
      // Upstream reflectors relist on 410; this one stops so the test sees it.
      if (e.object.code === 410) this.stop();
      return;
    }
    const rv = e.object.metadata?.resourceVersion;
    if (!rv) return;
    this.lastRv = rv;
    if (e.type === 'BOOKMARK') return;
    this.events.push({ type: e.type, name: e.object.metadata?.name ?? '', resourceVersion: rv, object: e.object as Record<string, unknown> });
  }

  stop(): void {
    this.stopped = true;
    this.abort?.();
  }
}
