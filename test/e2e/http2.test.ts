// HTTP/2 beside HTTP/1.1 on the one TLS port: ALPN, the same dispatch (client-cert authn, gzip,
// audit ids, 413, request timeouts), many watches multiplexed on one connection, a stalled stream
// cut off without disturbing its neighbours, upstream's limits, kubectl and client-node on h2,
// and GOAWAY on graceful shutdown.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http2 from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { ApiServerProcess, eventually, freePort, repoRoot, startCluster, TestCluster } from './support/apiserver';
import { connectH2, h2Request, h2Watch } from './support/h2client';
import { kubectlMinor } from './support/kubectlBinaries';

let c: TestCluster;
let auditDir: string;
const ns = 'h2';
const collection = `/api/v1/namespaces/${ns}/serviceaccounts`;

beforeAll(async () => {
  auditDir = mkdtempSync(join(tmpdir(), 'svc-e2e-h2-audit-'));
  writeFileSync(join(auditDir, 'policy.yaml'), 'apiVersion: audit.svc.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
  c = await startCluster([`--audit-log-path=${join(auditDir, 'audit.log')}`, `--audit-policy-file=${join(auditDir, 'policy.yaml')}`]);
  await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
});
afterAll(async () => {
  await c?.stop();
  rmSync(auditDir, { recursive: true, force: true });
});

/** The request log lines (JSON) the server wrote so far. */
function requestLog(api: ApiServerProcess): Array<Record<string, unknown>> {
  return api.logs
    .split('\n')
    .filter((l) => l.includes('"msg":"request"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function alpn(protocols: string[]): Promise<string | false> {
  const creds = c.apiserver.adminTls();
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host: '127.0.0.1', port: c.apiserver.port, ca: creds.ca, ALPNProtocols: protocols }, () => {
      resolve(s.alpnProtocol ?? false);
      s.destroy();
    });
    s.on('error', reject);
  });
}

test('ALPN offers h2 and http/1.1 on the same port, preferring h2', async () => {
  expect(await alpn(['h2', 'http/1.1'])).toBe('h2');
  expect(await alpn(['http/1.1', 'h2'])).toBe('h2');
  expect(await alpn(['http/1.1'])).toBe('http/1.1');
  expect((await c.apiserver.request('GET', '/readyz')).status).toBe(200);
});

test('the server announces upstream limits: 100 streams, 256 KiB window and frames, 1 MiB header list', async () => {
  const session = connectH2(c.apiserver);
  try {
    await new Promise((r) => session.once('remoteSettings', r));
    expect(session.remoteSettings).toMatchObject({ maxConcurrentStreams: 100, initialWindowSize: 256 * 1024, maxFrameSize: 256 * 1024, maxHeaderListSize: (1 << 20) + 320 });
  } finally {
    session.close();
  }
});

test('one dispatch over h2: client-cert user, audit id, gzip, metrics and the request log', async () => {
  const session = connectH2(c.apiserver);
  try {
    const r = await h2Request(session, 'GET', `/api/v1/namespaces/${ns}`);
    expect(r.status).toBe(200);
    expect(r.json<{ metadata: { name: string } }>().metadata.name).toBe(ns);
    const auditID = String(r.headers['audit-id']);
    expect(auditID).toMatch(/^[0-9a-f-]{36}$/);
    await eventually(async () => readFileSync(join(auditDir, 'audit.log'), 'utf8').includes(auditID), 10_000, 'the audit event');
    // The same request without a certificate is anonymous, which RBAC forbids.
    const anon = connectH2(c.apiserver, { anonymous: true });
    try {
      const denied = await h2Request(anon, 'GET', `/api/v1/namespaces/${ns}`);
      expect(denied.status).toBe(403);
      expect(denied.json<{ message: string }>().message).toContain('system:anonymous');
    } finally {
      anon.close();
    }
    // A list above the gzip threshold (128 KiB) comes compressed when asked.
    const pad = 'p'.repeat(20_000);
    for (let i = 0; i < 8; i++) {
      const created = await h2Request(session, 'POST', collection, { body: JSON.stringify({ metadata: { name: `gz-${i}`, annotations: { pad } } }), headers: { 'content-type': 'application/json' } });
      expect(created.status).toBe(201);
    }
    const list = await h2Request(session, 'GET', collection, { headers: { 'accept-encoding': 'gzip' } });
    expect(list.status).toBe(200);
    expect(list.headers['content-encoding']).toBe('gzip');
    expect(list.json<{ items: unknown[] }>().items.length).toBeGreaterThanOrEqual(8);
    const metrics = await h2Request(session, 'GET', '/metrics');
    expect(metrics.body.toString()).toMatch(/apiserver_request_total\{verb="POST"[^}]*resource="serviceaccounts"[^}]*code="201"\}/);
    // The request log is written to stdout in batches: its lines arrive a moment later.
    const users = (): string[] => requestLog(c.apiserver).filter((l) => l.protocol === 'HTTP/2.0' && l.verb === 'get' && l.resource === 'namespaces' && l.name === ns).map((l) => String(l.user));
    await eventually(async () => users().includes('admin') && users().includes('system:anonymous'), 10_000, 'both requests in the request log');
    expect(users()).toEqual(expect.arrayContaining(['admin', 'system:anonymous']));
  } finally {
    session.close();
  }
});

test('413 for a body over --max-request-bytes and 504 at ?timeout= for a body that never ends, over h2', async () => {
  const session = connectH2(c.apiserver);
  try {
    const big = Buffer.alloc(3 * 1024 * 1024 + 10, 0x20);
    const tooLarge = await h2Request(session, 'POST', collection, { body: big, headers: { 'content-type': 'application/json' } });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json<{ reason: string }>().reason).toBe('RequestEntityTooLarge');
    const stalled = await h2Request(session, 'POST', `${collection}?timeout=1s`, { body: '{"metadata":', endStream: false, headers: { 'content-type': 'application/json' } });
    expect(stalled.status).toBe(504);
    expect(stalled.json<{ reason: string }>().reason).toBe('Timeout');
    // The session outlived both.
    expect((await h2Request(session, 'GET', '/readyz')).status).toBe(200);
  } finally {
    session.close();
  }
});

/** A request's outcome: its status, or the RST_STREAM code it was reset with. */
function outcome(session: http2.ClientHttp2Session, path: string, headers: http2.OutgoingHttpHeaders = {}): Promise<string> {
  return new Promise((resolve) => {
    const req = session.request({ ':method': 'GET', ':path': path, ...headers });
    let status: number | undefined;
    req.on('response', (h) => (status = Number(h[':status'])));
    req.on('error', () => undefined);
    req.resume();
    req.on('close', () => resolve(status !== undefined ? String(status) : `reset ${req.rstCode}`));
  });
}

/** A watch on the collection from now on; resolves once it is open. */
async function openWatch(session: http2.ClientHttp2Session, selector: string): Promise<ReturnType<typeof h2Watch>> {
  const start = (await h2Request(session, 'GET', collection)).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
  const w = h2Watch(session, `${collection}?watch=true&resourceVersion=${start}&labelSelector=${encodeURIComponent(selector)}`);
  expect(await w.status).toBe(200);
  return w;
}

/** Creates an object the watch selects and waits for the watch to see it. */
async function watchSees(w: ReturnType<typeof h2Watch>, name: string, labels: Record<string, string>): Promise<void> {
  expect((await c.apiserver.request('POST', collection, { body: { metadata: { name, labels } } })).status).toBe(201);
  await eventually(async () => w.lines.some((l) => l.object.metadata?.name === name), 10_000, `the watch to see ${name}`);
}

test('large heads on one connection beside an open watch: served up to the 1 MiB list, one past it resets only its own stream', async () => {
  const session = connectH2(c.apiserver);
  try {
    // The first request settles SETTINGS (the larger header list applies once the client acknowledged it).
    expect((await h2Request(session, 'GET', '/readyz')).status).toBe(200);
    const w = await openWatch(session, 'heads=yes');
    // nghttp2 takes at most 64 KiB per field (as HPACK encodes it): three fields make a 180 KB head.
    const big = { 'x-big-0': 'a'.repeat(60_000), 'x-big-1': 'b'.repeat(60_000), 'x-big-2': 'c'.repeat(60_000) };
    expect(await outcome(session, '/readyz', big)).toBe('200');
    // Go counts only the list's bytes; Node would reset a head of more than 128 fields.
    const many: http2.OutgoingHttpHeaders = {};
    for (let i = 0; i < 1000; i++) many[`x-f-${i}`] = 'v';
    expect(await outcome(session, '/readyz', many)).toBe('200');
    // Copies of one 3,000-byte field: HPACK sends it once and indexes the rest, so the block stays
    // small (nghttp2 takes at most 8 CONTINUATION frames) while the list grows: each copy counts
    // 3,037 bytes. 340 copies (1,032,580) are served; 400 (1,214,800, past 1 MiB + 320) are not:
    // Go answers 431, Node resets the stream (ENHANCE_YOUR_CALM) before any handler sees it. Only
    // that stream.
    const copies = (n: number): http2.OutgoingHttpHeaders => ({ 'x-rep': Array.from({ length: n }, () => 'r'.repeat(3000)) });
    expect(await outcome(session, '/readyz', copies(340))).toBe('200');
    expect(await outcome(session, '/readyz', copies(400))).toBe(`reset ${http2.constants.NGHTTP2_ENHANCE_YOUR_CALM}`);
    await watchSees(w, 'heads-after', { heads: 'yes' });
    expect(w.stream.closed).toBe(false);
    expect(await outcome(session, '/readyz')).toBe('200');
    w.stream.close();
  } finally {
    session.close();
  }
});

test("a field over nghttp2's 64 KiB ends its own connection (COMPRESSION_ERROR); a watch on another connection goes on", async () => {
  const watching = connectH2(c.apiserver);
  const sending = connectH2(c.apiserver);
  try {
    const w = await openWatch(watching, 'field=yes');
    expect((await h2Request(sending, 'GET', '/readyz')).status).toBe(200);
    // '~' has a 13-bit Huffman code, so the value goes out as it is: exactly 64 KiB is served …
    expect(await outcome(sending, '/readyz', { 'x-big': '~'.repeat(65_536) })).toBe('200');
    // … one byte more and nghttp2 (NGHTTP2_HD_MAX_NV) ends the whole session, which Node cannot change.
    const goaway = new Promise<number>((resolve) => sending.once('goaway', (code: number) => resolve(code)));
    expect(await outcome(sending, '/readyz', { 'x-big': '~'.repeat(65_537) })).toBe(`reset ${http2.constants.NGHTTP2_COMPRESSION_ERROR}`);
    expect(await goaway).toBe(http2.constants.NGHTTP2_COMPRESSION_ERROR);
    await watchSees(w, 'field-after', { field: 'yes' });
    expect(w.stream.closed).toBe(false);
    w.stream.close();
  } finally {
    watching.close();
    sending.destroy();
  }
});

test('300 streams at once on one connection: the extra ones are refused, the first 100 (an open watch among them) complete', async () => {
  // Everything is queued before the connection exists, so it all goes out before the server's
  // SETTINGS arrive: the client assumes 1,000 streams, the server allows 100 and refuses the rest
  // with REFUSED_STREAM, as Go's server does for streams that race its SETTINGS.
  const session = connectH2(c.apiserver, { session: { peerMaxConcurrentStreams: 1000 } });
  try {
    const w = h2Watch(session, `${collection}?watch=true&labelSelector=burst%3Dyes`);
    const results = await Promise.all(Array.from({ length: 300 }, () => outcome(session, '/readyz')));
    const counts: Record<string, number> = {};
    for (const r of results) counts[r] = (counts[r] ?? 0) + 1;
    expect(Object.keys(counts).sort()).toEqual(['200', `reset ${http2.constants.NGHTTP2_REFUSED_STREAM}`]);
    expect(counts['200']).toBeGreaterThanOrEqual(99);
    expect(await w.status).toBe(200);
    await watchSees(w, 'burst-after', { burst: 'yes' });
    expect(session.destroyed).toBe(false);
    w.stream.close();
  } finally {
    session.close();
  }
});

test('ten watches share one connection, each receiving its own events', async () => {
  const session = connectH2(c.apiserver);
  try {
    const start = (await h2Request(session, 'GET', collection)).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
    const watches = Array.from({ length: 10 }, (_, i) => h2Watch(session, `${collection}?watch=true&resourceVersion=${start}&labelSelector=w%3D${i}`));
    for (const w of watches) expect(await w.status).toBe(200);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 10; i++) {
        const r = await c.apiserver.request('POST', collection, { body: { metadata: { name: `mux-${i}-${round}`, labels: { w: String(i) } } } });
        expect(r.status).toBe(201);
      }
    }
    for (const [i, w] of watches.entries()) {
      await eventually(async () => w.lines.length >= 3, 10_000, `watch ${i} to get its 3 events`);
      expect(w.lines.map((l) => `${l.type}/${l.object.metadata?.name}`)).toEqual([0, 1, 2].map((r) => `ADDED/mux-${i}-${r}`));
    }
    for (const w of watches) w.stream.close();
    await eventually(async () => requestLog(c.apiserver).filter((l) => l.verb === 'watch' && l.protocol === 'HTTP/2.0').length >= 10, 10_000, 'ten h2 watch log lines');
  } finally {
    session.close();
  }
});

test('a stalled stream is cut off; the other streams on its connection go on', async () => {
  const session = connectH2(c.apiserver);
  try {
    const start = (await h2Request(session, 'GET', collection)).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
    // Both on one session: the stalled one watches the large objects, the other small heartbeats.
    const stalled = h2Watch(session, `${collection}?watch=true&resourceVersion=${start}&labelSelector=stall%3Dyes`);
    const healthy = h2Watch(session, `${collection}?watch=true&resourceVersion=${start}&labelSelector=beat%3Dyes`);
    expect(await stalled.status).toBe(200);
    expect(await healthy.status).toBe(200);
    // Never read again: its stream window (64 KiB) fills, then the server's queue for it.
    stalled.stream.pause();
    const big = 'x'.repeat(200_000);
    // ~30 MB: well past the cache's 16 MiB per-watcher limit counted from the moment it paused.
    const n = 150;
    let beats = 0;
    for (let i = 0; i < n; i += 10) {
      const batch = Array.from({ length: 10 }, (_, j) => c.apiserver.request('POST', collection, { body: { metadata: { name: `stall-${i + j}`, labels: { stall: 'yes' }, annotations: { blob: big } } } }));
      for (const r of await Promise.all(batch)) expect(r.status).toBe(201);
      expect((await c.apiserver.request('POST', collection, { body: { metadata: { name: `beat-${beats++}`, labels: { beat: 'yes' } } } })).status).toBe(201);
    }
    // The server reset the stalled stream (it never read, so it saw no clean end) and counted the drop.
    await eventually(async () => stalled.stream.closed, 60_000, 'the stalled stream to be cut off');
    const metrics = await h2Request(session, 'GET', '/metrics');
    expect(metrics.body.toString()).toMatch(/apiserver_terminated_watchers_total\{group="",version="v1",resource="serviceaccounts"\} [1-9]/);
    // The other stream on the same connection saw every heartbeat, before and after the cut, and stays open.
    expect((await c.apiserver.request('POST', collection, { body: { metadata: { name: `beat-${beats++}`, labels: { beat: 'yes' } } } })).status).toBe(201);
    await eventually(async () => healthy.lines.length >= beats, 30_000, 'every heartbeat on the healthy stream');
    expect(healthy.lines.map((l) => l.object.metadata?.name)).toEqual(Array.from({ length: beats }, (_, i) => `beat-${i}`));
    expect(healthy.stream.closed).toBe(false);
    expect((await h2Request(session, 'GET', `${collection}/beat-0`)).status).toBe(200);
    healthy.stream.close();
  } finally {
    session.destroy();
  }
}, 300_000);

test('kubectl (every installed minor) negotiates h2', async () => {
  const binaries = ['kubectl', ...['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'].map(kubectlMinor)];
  for (const [i, binary] of binaries.entries()) {
    const target = `kubectl-${i}`;
    const r = await c.apiserver.kubectl(['get', 'serviceaccounts', '-n', target], { binary });
    expect(r.code).toBe(0);
    const lines = await eventually(async () => {
      const found = requestLog(c.apiserver).filter((l) => l.namespace === target && l.verb === 'list');
      return found.length ? found : undefined;
    }, 10_000, `${binary}'s request log line`);
    expect(lines.map((l) => `${binary}: ${String(l.protocol)}`)).toEqual(lines.map(() => `${binary}: HTTP/2.0`));
  }
}, 120_000);

test('@kubernetes/client-node negotiates h2 for requests and watches', async () => {
  const script = `
    import * as k8s from '@kubernetes/client-node';
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(process.argv[1]);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.listNamespacedServiceAccount({ namespace: 'client-node' });
    const watch = new k8s.Watch(kc);
    const req = await watch.watch('/api/v1/namespaces/client-node/serviceaccounts', {}, () => {}, () => {});
    await new Promise((r) => setTimeout(r, 500));
    req.abort();
    process.exit(0);
  `;
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script, c.apiserver.kubeconfig], { cwd: repoRoot, timeout: 30_000 }, (err, _out, stderr) =>
      err ? reject(new Error(`client-node script failed: ${stderr}`)) : resolve(),
    );
  });
  const lines = await eventually(async () => {
    const found = requestLog(c.apiserver).filter((l) => l.namespace === 'client-node');
    return found.length >= 2 ? found : undefined;
  }, 10_000, 'the list and watch log lines');
  expect(lines.map((l) => `${String(l.verb)} ${String(l.protocol)}`).sort()).toEqual(['list HTTP/2.0', 'watch HTTP/2.0']);
});

describe('a second apiserver with --http2-max-streams-per-connection=3', () => {
  let dir: string;
  let second: ApiServerProcess;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-e2e-h2-'));
    second = new ApiServerProcess(dir, await freePort(), c.etcd.endpoint, ['--http2-max-streams-per-connection=3']);
    await second.start();
  });
  afterAll(async () => {
    await second?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('announces the flag as SETTINGS_MAX_CONCURRENT_STREAMS and refuses streams past it', async () => {
    const session = connectH2(second);
    try {
      await new Promise((r) => session.once('remoteSettings', r));
      expect(session.remoteSettings.maxConcurrentStreams).toBe(3);
      // Node's client keeps the fourth stream queued while three are open …
      const watches = Array.from({ length: 4 }, () => h2Watch(session, '/api/v1/namespaces/quiet/serviceaccounts?watch=true'));
      for (const w of watches.slice(0, 3)) expect(await w.status).toBe(200);
      let fourthStarted = false;
      void watches[3].status.then(() => (fourthStarted = true));
      const other = connectH2(second);
      expect((await h2Request(other, 'GET', '/readyz')).status).toBe(200);
      other.close();
      expect(fourthStarted).toBe(false);
      // … and sends it right behind the first one's RST_STREAM. Go's server would serve it; Node's
      // still counts the closed stream until the next turn of its loop and refuses the new one
      // with ENHANCE_YOUR_CALM (docs/decisions.md, issue 26 item 2). The session goes on.
      watches[0].stream.close();
      expect(await watches[3].closed).toBe(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
      expect(fourthStarted).toBe(false);
      expect(session.destroyed).toBe(false);
      for (const w of watches) w.stream.close();
    } finally {
      session.close();
    }
  });

  test('graceful shutdown sends GOAWAY and ends open watch streams cleanly', async () => {
    const session = connectH2(second);
    let goaway = false;
    session.on('goaway', () => (goaway = true));
    const w = h2Watch(session, '/api/v1/namespaces/quiet/serviceaccounts?watch=true');
    expect(await w.status).toBe(200);
    const stopped = second.stop();
    expect(await w.closed).toBe(http2.constants.NGHTTP2_NO_ERROR);
    await stopped;
    expect(goaway).toBe(true);
    session.destroy();
  });
});
