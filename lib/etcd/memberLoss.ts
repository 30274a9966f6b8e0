// Calls left waiting on the other members when one member's connection is lost. A follower
// forwards a write to the leader; if the leader is gone (killed, stopped, cut off) the forwarded
// proposal is dropped, and etcd answers the call only at its own request timeout (5 s + 2 ×
// election timeout, 7 s by default) — "request timed out, possibly due to previous leader
// failure" — although a new leader is elected within about a second. So after a member is lost,
// a call on another member that started before the followers could notice (noticeMs, etcd's
// election timeout) and is still unanswered abandonAfterMs after it started (and not before the
// loss was seen) is cancelled: a write fails UNAVAILABLE with an unknown outcome, as it would at
// etcd's timeout, only sooner; a read is sent again. A healthy cluster answers in milliseconds,
// so only calls the lost member holds up are affected.
import type { PingClock } from './wire/pinger';
import { realClock } from './wire/pinger';

export interface MemberLossTuning {
  /** How long after its start (and no sooner than the loss) a call is abandoned; default 2 s. */
  abandonAfterMs?: number;
  /** How long after a loss new calls are still suspect (followers notice a lost leader within etcd's election timeout, 1 s). */
  noticeMs?: number;
}

interface Call {
  since: number;
  endpoint: string;
  cancel: (details: string) => void;
  timer?: unknown;
}

interface Loss {
  endpoint: string;
  at: number;
  until: number;
  error: string;
}

export class MemberLoss {
  private readonly calls = new Set<Call>();
  private lost: Loss | undefined;
  private readonly abandonAfterMs: number;
  private readonly noticeMs: number;

  constructor(tuning: MemberLossTuning = {}, private readonly clock: PingClock = realClock) {
    this.abandonAfterMs = tuning.abandonAfterMs ?? 2000;
    this.noticeMs = tuning.noticeMs ?? 1000;
  }

  /** A call started on endpoint; cancel(details) ends it. Returns done(), to call when it ends. */
  begin(endpoint: string, cancel: (details: string) => void): () => void {
    const call: Call = { since: this.clock.now(), endpoint, cancel };
    this.calls.add(call);
    const lost = this.lost;
    if (lost && call.since < lost.until && endpoint !== lost.endpoint) this.arm(call, lost);
    return () => {
      if (!this.calls.delete(call)) return;
      if (call.timer !== undefined) this.clock.clearTimeout(call.timer);
    };
  }

  /** The connection to endpoint was lost while ready (reset, closed, silent). */
  memberLost(endpoint: string, error: string | undefined): void {
    const now = this.clock.now();
    const lost: Loss = { endpoint, at: now, until: now + this.noticeMs, error: error || 'connection closed' };
    this.lost = lost;
    for (const call of this.calls) if (call.endpoint !== endpoint && call.timer === undefined) this.arm(call, lost);
  }

  private arm(call: Call, lost: Loss): void {
    const due = Math.max(lost.at, call.since + this.abandonAfterMs);
    call.timer = this.clock.setTimeout(() => {
      call.timer = undefined;
      if (!this.calls.has(call)) return;
      const waited = ((this.clock.now() - call.since) / 1000).toFixed(1);
      call.cancel(
        `abandoned after ${waited} s: etcd member ${lost.endpoint} was lost at ${new Date(lost.at).toISOString()} (${lost.error}), ` +
          `and etcd holds a call forwarded to a lost leader until its own request timeout; the outcome is unknown`,
      );
    }, Math.max(0, due - this.clock.now()));
  }
}
