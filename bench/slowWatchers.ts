// The server's memory with watchers that never read (issue 26 item 6): N watches on one
// collection whose clients stop reading once the response headers arrive (HTTP/1.1: a paused
// TLS socket each; HTTP/2: paused streams, 100 per session), one watch that reads, and writes of
// large objects. Reports the apiserver's RSS (baseline, highest while writing, after), the
// watchers cut off, the watch budget's gauges where the revision has them, and whether the reader
// got every event. A measurement, not a test:
//
//   npx tsc -p bench/tsconfig.json && node dist/bench/bench/slowWatchers.js \
//     [--watchers=1000] [--protocol=mixed|h1|h2] [--writes=40] [--objectBytes=262144] \
//     [--revision=REV] [--args='--max-watch-unsent-bytes=...']
//
// --revision runs an earlier revision's build (bench/previousRelease.ts) for a before and after.
import * as http2 from 'node:http2';
import * as tls from 'node:tls';
import { metricSum, repoRoot, rssBytes, startCluster, steadyRss, type Cluster } from './cluster';
import { buildRevision } from './previousRelease';

interface Config {
  watchers: number;
  protocol: 'mixed' | 'h1' | 'h2';
  writes: number;
  objectBytes: number;
  revision: string;
  args: string[];
}

function parseArgs(argv: string[]): Config {
  const cfg: Config = { watchers: 1000, protocol: 'mixed', writes: 40, objectBytes: 256 * 1024, revision: '', args: [] };
  for (const a of argv) {
    const m = /^--([a-zA-Z]+)=(.*)$/.exec(a);
    if (!m) throw new Error(`bad argument ${a}`);
    const [, k, v] = m;
    if (k === 'watchers' || k === 'writes' || k === 'objectBytes') cfg[k] = Number(v);
    else if (k === 'protocol' && (v === 'mixed' || v === 'h1' || v === 'h2')) cfg.protocol = v;
    else if (k === 'revision') cfg.revision = v;
    else if (k === 'args') cfg.args = v.split(/\s+/).filter(Boolean);
    else throw new Error(`unknown argument ${a}`);
  }
  return cfg;
}

const mib = (b: number): string => (b / 1048576).toFixed(1);

/** Opens the stalled watches; resolves once every one answered 200 and stopped reading. */
async function openStalled(cluster: Cluster, path: string, h1: number, h2: number): Promise<{ close(): void }> {
  const { ca, cert, key } = cluster.client.creds;
  const url = new URL(cluster.apiserverUrl);
  const sockets: tls.TLSSocket[] = [];
  const sessions: http2.ClientHttp2Session[] = [];
  const streams: http2.ClientHttp2Stream[] = [];
  const answered: Promise<void>[] = [];
  for (let i = 0; i < h1; i++) {
    const s = tls.connect({ host: url.hostname, port: Number(url.port), ca, cert, key, ALPNProtocols: ['http/1.1'] });
    s.on('error', () => undefined);
    s.on('secureConnect', () => s.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`));
    answered.push(new Promise((resolve) => s.once('data', () => (s.pause(), resolve()))));
    sockets.push(s);
  }
  for (let i = 0; i < h2; i++) {
    if (i % 100 === 0) {
      const session = http2.connect(cluster.apiserverUrl, { ca, cert, key });
      session.on('error', () => undefined);
      sessions.push(session);
    }
    const st = sessions[sessions.length - 1].request({ ':method': 'GET', ':path': path });
    st.on('error', () => undefined);
    answered.push(new Promise((resolve) => st.once('response', () => (st.pause(), resolve()))));
    streams.push(st);
  }
  await Promise.all(answered);
  return {
    close: () => {
      for (const s of sockets) s.destroy();
      for (const s of sessions) s.destroy();
    },
  };
}

/** A watch that reads and counts the events it receives (lines of a JSON watch). */
function reader(cluster: Cluster, path: string): { events(): number; close(): void } {
  const { ca, cert, key } = cluster.client.creds;
  const session = http2.connect(cluster.apiserverUrl, { ca, cert, key });
  session.on('error', () => undefined);
  const st = session.request({ ':method': 'GET', ':path': path });
  let events = 0;
  st.on('data', (c: Buffer) => {
    for (let i = c.indexOf(10); i >= 0; i = c.indexOf(10, i + 1)) events++;
  });
  st.on('error', () => undefined);
  return { events: () => events, close: () => session.destroy() };
}

async function main(): Promise<void> {
  const cfg = parseArgs(process.argv.slice(2));
  const built = cfg.revision ? buildRevision(cfg.revision, (m) => process.stderr.write(`${m}\n`)) : undefined;
  const cluster = await startCluster(8, undefined, cfg.args, [], built?.root ?? repoRoot);
  const ns = 'slow';
  const collection = `/api/v1/namespaces/${ns}/configmaps`;
  try {
    await cluster.client.expect('POST', '/api/v1/namespaces', [201], { metadata: { name: ns } });
    const rv = (await cluster.client.expect('GET', collection, [200])).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
    const path = `${collection}?watch=true&resourceVersion=${rv}`;
    const baseline = await steadyRss(cluster.apiserverPid);
    const h1 = cfg.protocol === 'h2' ? 0 : cfg.protocol === 'h1' ? cfg.watchers : cfg.watchers >> 1;
    const stalled = await openStalled(cluster, path, h1, cfg.watchers - h1);
    const readWatch = reader(cluster, path);
    const withWatchers = await steadyRss(cluster.apiserverPid);
    let highest = 0;
    const sampler = setInterval(() => (highest = Math.max(highest, rssBytes(cluster.apiserverPid))), 50);
    const started = Date.now();
    const blob = 'x'.repeat(cfg.objectBytes);
    for (let i = 0; i < cfg.writes; i++) {
      await cluster.client.expect('POST', collection, [201], { metadata: { name: `big-${i}` }, data: { blob: `${i}${blob}` } });
    }
    const writeSeconds = (Date.now() - started) / 1000;
    // The reader's events, and a moment for cut-offs that wait for a stuck watcher's second.
    const deadline = Date.now() + 60_000;
    while (readWatch.events() < cfg.writes && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 3000));
    clearInterval(sampler);
    const after = await steadyRss(cluster.apiserverPid);
    const metric = (name: string): Promise<number | undefined> => metricSum(cluster.client, name);
    const result = {
      revision: built?.subject ?? 'this build',
      args: cfg.args.join(' '),
      watchers: cfg.watchers,
      h1,
      h2: cfg.watchers - h1,
      writes: cfg.writes,
      objectBytes: cfg.objectBytes,
      writeSeconds,
      rssBaselineMiB: mib(baseline),
      rssWithWatchersMiB: mib(withWatchers),
      rssHighestMiB: mib(highest),
      rssAfterMiB: mib(after),
      terminatedWatchers: await metric('apiserver_terminated_watchers_total'),
      readerEvents: readWatch.events(),
      heapUsedMiB: mib((await metric('nodejs_heap_size_used_bytes')) ?? 0),
      externalMiB: mib((await metric('nodejs_external_memory_bytes')) ?? 0),
      unsentBytes: await metric('apiserver_watch_unsent_bytes'),
      unsentBytesPeak: await metric('apiserver_watch_unsent_bytes_peak'),
      unsentBytesLimit: await metric('apiserver_watch_unsent_bytes_limit'),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    readWatch.close();
    stalled.close();
  } finally {
    await cluster.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
