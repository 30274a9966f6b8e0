// Many watches multiplexed over a few HTTP/2 sessions (streamsPerSession each), and the same
// number as HTTP/1.1 watches (one TLS connection each) for comparison; each receipt of a
// `bench-seq` label is timestamped so delivery latency can be read per event per watcher.
import * as http2 from 'node:http2';
import * as https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { Credentials } from './httpsClient';
import { findSeq } from './objects';

export interface WatchFleet {
  /** receipts[seq] = arrival times (performance.now()) of that update across watchers. */
  receipts: Map<number, number[]>;
  /** Watches answered 200. */
  open: number;
  close(): void;
}

function track(receipts: Map<number, number[]>): (chunk: Buffer) => void {
  return (chunk) => {
    // One chunk may hold several events; each line carries at most one seq label.
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      const to = nl < 0 ? chunk.length : nl;
      const seq = findSeq(chunk, from, to);
      if (seq >= 0) {
        const list = receipts.get(seq) ?? [];
        list.push(performance.now());
        receipts.set(seq, list);
      }
      if (nl < 0) break;
      from = nl + 1;
    }
  };
}

/** Opens n watches on `path` over ceil(n / streamsPerSession) HTTP/2 sessions; resolves when all answered. */
export async function openH2Watches(url: string, creds: Credentials, path: string, n: number, streamsPerSession: number): Promise<WatchFleet> {
  const receipts = new Map<number, number[]>();
  const sessions: http2.ClientHttp2Session[] = [];
  const streams: http2.ClientHttp2Stream[] = [];
  const onData = track(receipts);
  let open = 0;
  const answered: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    if (i % streamsPerSession === 0) {
      const s = http2.connect(url, { ...creds });
      s.on('error', () => undefined);
      sessions.push(s);
    }
    const st = sessions[sessions.length - 1].request({ ':method': 'GET', ':path': path });
    st.on('error', () => undefined);
    st.on('data', onData);
    streams.push(st);
    answered.push(
      new Promise((resolve) =>
        st.once('response', (h) => {
          if (h[':status'] === 200) open++;
          resolve();
        }),
      ),
    );
  }
  await Promise.all(answered);
  return {
    receipts,
    open,
    close: () => {
      for (const st of streams) st.close();
      for (const s of sessions) s.destroy();
    },
  };
}

/** n HTTP/1.1 watches, one TLS connection each. */
export async function openH1Watches(url: string, creds: Credentials, path: string, n: number): Promise<WatchFleet> {
  const receipts = new Map<number, number[]>();
  const onData = track(receipts);
  const agent = new https.Agent({ keepAlive: true, maxSockets: n, ...creds });
  const reqs: ReturnType<typeof https.request>[] = [];
  let open = 0;
  await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<void>((resolve) => {
          const req = https.request(`${url}${path}`, { method: 'GET', agent }, (res) => {
            if (res.statusCode === 200) open++;
            res.on('data', onData);
            res.on('error', () => undefined);
            resolve();
          });
          req.on('error', () => resolve());
          req.end();
          reqs.push(req);
        }),
    ),
  );
  return {
    receipts,
    open,
    close: () => {
      for (const r of reqs) r.destroy();
      agent.destroy();
    },
  };
}
