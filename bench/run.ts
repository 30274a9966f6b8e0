// `make bench`: starts its own etcd and svc-apiserver and measures both, side by side in one run,
// on the same operations: creates, GETs, read-modify-write updates (each the median of ≥ 3
// alternating rounds, with the apiserver's CPU per operation), full lists (unpaged, paged, resourceVersion=0), watch
// fan-out, memory per stored object and per idle watcher, and what RBAC costs a GET (against a
// second apiserver with AlwaysAllow), and certificate issuance through svc-controller-manager
// (CSR created → issued, and signatures/s). Prints a table with ratios
// (server ÷ etcd) and writes JSON to bench/results/. Flags: --key=value (see `defaults`).
// The crd phase (bench/crd.ts) measures custom resources beside a built-in kind the same way,
// and CRD install times.
// --scale runs bench/scale.ts instead: growth from 10k to 100k objects with 1,000 watchers.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Etcd3 } from 'etcd3';
import { findEtcdBinary } from '../lib/etcd/testing/etcdServer';
import { runAuthz } from './authz';
import { runCsr } from './csr';
import { runCrd } from './crd';
import { defaultTrackingBaseline, runFieldTracking } from './fieldTracking';
import { runFormats } from './formats';
import { runPolicies } from './policies';
import { runHostileRegex } from './hostileRegex';
import { buildRevision } from './previousRelease';
import { startBareServer } from './bareServer';
import { awaitMallocTrim, Cluster, freePort, heapUsed, mallocTrims, metricSum, repoRoot, startCluster, steadyRss } from './cluster';
import { Inspector } from './inspector';
import { etcdClient, etcdCreates, etcdGets, etcdListOnce, etcdLists } from './etcdBaseline';
import type { HttpsClient } from './httpsClient';
import { runLoad, sleep, Pids } from './load';
import { runStartup } from './startup';
import { currentLoad, describeMachine } from './machine';
import { benchNamespace, objectName, warmupNamespace, watchNamespace } from './objects';
import { evaluateTargets, renderTable, Results, writeResults } from './report';
import { alternate } from './rounds';
import { ensureNamespace, ListMode, serverCreates, serverGets, serverListOnce, serverLists } from './serverLoad';
import { etcdUpdates, serverUpdates } from './updates';
import { idleWatchersAfterGc, etcdWatchers, serverWatchers, type IdleAfterGc } from './watchers';
import { scaleMain } from './scale';

const defaults = {
  /** Objects created (and then listed) on each side. */
  objects: 10_000,
  /** Requests in flight for creates and GETs. */
  concurrency: 64,
  /** Warm-up creates per side (another namespace / key prefix). */
  warmupCreates: 1000,
  warmupSeconds: 2,
  /**
   * After the memory point's full GCs (V8's last-resort GCs, which drop optimized code): creates
   * and updates of this many more warm-up objects, apiserver only, unmeasured. They stay, and the
   * memory figures divide by objects + rewarmCreates.
   */
  rewarmCreates: 4000,
  /** Per round (creates are split across the rounds: objects ÷ rounds each). */
  getSeconds: 5,
  /** Alternating rounds (server, etcd, then etcd, server, …) of creates, GETs and updates; the median is reported. */
  rounds: 3,
  /** Read-modify-write updates (GET + PUT) per round. */
  rmwUpdates: 2000,
  listIterations: 10,
  pageSize: 500,
  watchers: 500,
  updates: 1000,
  /** Watch updates per second (open loop, the same on both sides): 1,000 updates take 50 s. */
  watchRate: 20,
  /** Uncounted watch updates before the counted ones. */
  watchWarmup: 20,
  /** Events not delivered this long after the last write count as lost. */
  drainSeconds: 60,
  /** Padding annotation length: stored objects are ~1 KiB. */
  pad: 512,
  /** Also GET against bare node:https (HTTP framework overhead). */
  bare: true,
  /** RBAC objects (roles and bindings for other users) the authz phase adds to the bootstrap policy. */
  authzPolicyObjects: 50,
  /** Node client CSRs issued through the controller manager, in each of the sequential and burst runs. */
  csrs: 100,
  /** CSR creates in flight in the burst run. */
  csrConcurrency: 16,
  /** In-process CsrSigner.sign calls per request key type. */
  csrSignatures: 500,
  /** Field tracking phase: the revision compared against (built into .cache/bench-baseline/). */
  trackingBaseline: defaultTrackingBaseline,
  /** Field tracking phase: creates (then updates) per side and round, and rounds (median). */
  trackingObjects: 2000,
  trackingRounds: 3,
  /** Creates measured per policy count in the admission-policy phase (/proc CPU ticks are 10 ms: fewer is noise). */
  policyCreates: 12000,
  /** Bound ValidatingAdmissionPolicies (3 validations each) the policy phase measures with. */
  policyCounts: '0,10,100',
  /** Rounds the policy counts alternate in (each measures policyCreates ÷ rounds creates per count; a multiple of the counts' number puts each count in each place of a round equally often). */
  policyRounds: 12,
  /** Hostile-regex phase: seconds of hostile creates (and of idle /livez probes before them), creates in flight, the hostile value's length. */
  hostileRegexSeconds: 10,
  hostileRegexConcurrency: 8,
  hostileRegexInput: 34,
  /** crd phase: custom resources (and as many padded ServiceAccounts) created between its memory phase's two after-GC points. */
  crdMemoryObjects: 10_000,
  /** crd phase: watch updates per kind (at --watchRate, to --watchers; fewer than the watch phase's, the phase runs it twice). */
  crdWatchUpdates: 300,
  /** crd phase: CRDs installed one at a time, then as many more at once. */
  crdInstalls: 100,
  /** crd phase: how often a new CRD's Established condition, discovery and OpenAPI are polled (ms). */
  crdPollMs: 5,
  /** Small counts for a smoke run. */
  quick: false,
  /** Starts of each kind in the startup phase (--ephemeral, in-process test server, etcd + server). */
  startupRuns: 5,
  /** Which measurements: all, or a comma list of startup,creates,gets,updates,lists,formats,bare,watch,tracking,policies,hostileRegex,crd,authz,csr (gets, updates, lists, formats and bare imply creates). */
  phases: 'all',
  /** Run the apiserver with --cpu-prof (profile in bench/results/profiles/). */
  profile: false,
  /** Node's own options for the apiserver, comma-separated (e.g. --trace-gc), for experiments; recorded with the results. */
  nodeFlags: '',
  /**
   * Run the measured svc-apiserver from this earlier revision instead (built into
   * .cache/bench-baseline/ as the field-tracking baseline is): the same bench on the same machine
   * before and after, when absolute figures moved with the machine. Recorded with the results.
   * Only with phases that measure whichever apiserver runs (revisionPhases), not with --scale.
   */
  apiserverRevision: '',
  /** Instead of the phases above: the scale run (bench/scale.ts) over --scaleSizes with --scaleWatchers. */
  scale: false,
  scaleSizes: '10000,30000,100000',
  scaleWatchers: 1000,
  /** HTTP/1.1 watchers opened once in the scale run, for idle memory beside HTTP/2's. */
  scaleH1Watchers: 200,
  /** The whole run aborts (writing what it has) after this. */
  timeLimitSeconds: 570,
  out: join(repoRoot, 'bench/results'),
};
type Config = typeof defaults;

function parseArgs(argv: string[]): Config {
  const cfg: Record<string, number | string | boolean> = { ...defaults };
  for (const arg of argv) {
    const m = /^--([a-zA-Z][a-zA-Z0-9]*)(?:=(.*))?$/.exec(arg);
    if (!m || !(m[1] in defaults)) throw new Error(`unknown flag ${arg}; flags: ${Object.keys(defaults).map((k) => `--${k}`).join(' ')}`);
    const cur = defaults[m[1] as keyof Config];
    const v = m[2];
    if (typeof cur === 'boolean') cfg[m[1]] = v === undefined || v === 'true';
    else if (typeof cur === 'number') {
      if (v === undefined || !Number.isFinite(Number(v)) || Number(v) <= 0) throw new Error(`--${m[1]} needs a positive number`);
      cfg[m[1]] = Number(v);
    } else cfg[m[1]] = v ?? '';
  }
  const c = cfg as Config;
  if (c.quick) {
    const given = new Set(argv.map((a) => a.replace(/^--/, '').split('=')[0]));
    const quick: Partial<Config> = { startupRuns: 3, objects: 2000, warmupCreates: 300, rewarmCreates: 1000, warmupSeconds: 1, getSeconds: 2, rmwUpdates: 500, listIterations: 5, watchers: 100, updates: 200, csrs: 50, csrSignatures: 200, trackingObjects: 500, policyCreates: 2000, policyRounds: 3, crdMemoryObjects: 2000, crdWatchUpdates: 100, crdInstalls: 20 };
    for (const [k, v] of Object.entries(quick)) if (!given.has(k)) (cfg as Record<string, unknown>)[k] = v;
  }
  return c;
}

const t0 = Date.now();
function step(msg: string): void {
  process.stderr.write(`[bench ${((Date.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${msg}\n`);
}

const allPhases = ['startup', 'creates', 'gets', 'updates', 'lists', 'formats', 'bare', 'watch', 'tracking', 'policies', 'hostileRegex', 'crd', 'authz', 'csr'];
/** Phases that need the shared etcd + apiserver cluster (startup starts its own servers). */
const clusterPhases = allPhases.filter((p) => p !== 'startup');
/** Phases that can measure an earlier revision (--apiserverRevision): the others start this build or compare against it. */
const revisionPhases = ['creates', 'gets', 'updates', 'lists', 'bare', 'watch', 'hostileRegex'];

/** What every phase needs. */
interface Ctx {
  cfg: Config;
  cluster: Cluster;
  results: Results;
  api: HttpsClient;
  etcd: Etcd3;
  pids: Pids;
  /** One object as the apiserver stored it (the raw side's value, renamed per key). */
  template: Buffer;
  templateName: string;
  /** The apiserver's node inspector (--inspect): full GCs before memory figures. */
  inspectPort: number;
}

async function bench(cfg: Config, cluster: Cluster, results: Results, inspectPort: number): Promise<void> {
  const phases = new Set(cfg.phases === 'all' ? clusterPhases : cfg.phases.split(',').filter((p) => p !== 'startup'));
  if (phases.has('bare')) phases.add('gets');
  if (phases.has('gets') || phases.has('updates') || phases.has('lists') || phases.has('formats')) phases.add('creates');

  const api = cluster.client;
  const pids = { apiserver: cluster.apiserverPid, etcd: cluster.etcdPid };
  const etcd = etcdClient(cluster.etcd.endpoint);
  try {
    await ensureNamespace(api, benchNamespace);
    await ensureNamespace(api, warmupNamespace);
    const C = cfg.concurrency;
    step(`warm-up: ${cfg.warmupCreates} creates, ${cfg.warmupSeconds} s of GETs and ${cfg.warmupCreates} updates per side`);
    await serverCreates(api, pids, warmupNamespace, 0, cfg.warmupCreates, C, cfg.pad);
    const templateName = objectName(0);
    const template = await etcd.get(`/registry/serviceaccounts/${warmupNamespace}/${templateName}`).buffer();
    if (!template) throw new Error('cannot read the stored template object from etcd');
    await etcdCreates(etcd, pids, warmupNamespace, template, templateName, 0, cfg.warmupCreates, C);
    await serverGets(api, pids, warmupNamespace, cfg.warmupCreates, C, cfg.warmupSeconds);
    await etcdGets(etcd, pids, warmupNamespace, cfg.warmupCreates, C, cfg.warmupSeconds);
    // The update phase's PUT path is compiled here too, not in its first measured round.
    await serverUpdates(api, pids, warmupNamespace, cfg.warmupCreates, 0, cfg.warmupCreates, C);
    await etcdUpdates(etcd, pids, warmupNamespace, cfg.warmupCreates, 0, cfg.warmupCreates, C);
    const ctx: Ctx = { cfg, cluster, results, api, etcd, pids, template, templateName, inspectPort };

    if (phases.has('creates')) await objectPhases(ctx, phases);
    if (phases.has('formats')) await formatsPhase(ctx);
    if (phases.has('bare')) await barePhase(ctx);
    if (phases.has('watch')) await watchPhase(ctx);
    // Runs the previous release's apiserver beside this one, on the same etcd.
    if (phases.has('tracking')) await trackingPhase(ctx);
    if (phases.has('policies')) await policiesPhase(ctx);
    if (phases.has('hostileRegex')) await hostileRegexPhase(ctx);
    // After the phases on built-in kinds: the CRDs it installs stay (and are served) after it.
    if (phases.has('crd')) await crdPhase(ctx);
    // Last: it adds RBAC objects and runs a second apiserver, which nothing before should see.
    if (phases.has('authz')) await authzPhase(ctx);
    // After authz too: it starts a controller manager, whose controllers then act on the cluster.
    if (phases.has('csr')) await csrPhase(ctx);
  } finally {
    etcd.close();
  }
}

/** Creates, GETs and lists of N objects, and the apiserver's memory growth across them. */
async function objectPhases(ctx: Ctx, phases: Set<string>): Promise<void> {
  const { cfg, api, etcd, pids, results } = ctx;
  const N = cfg.objects;
  const C = cfg.concurrency;
  await sleep(1000);
  const rss0 = await steadyRss(pids.apiserver);
  const heap0 = await heapUsed(api);
  const etcdRss0 = await steadyRss(pids.etcd);
  // The same point after full GCs (taken after the figures above, which stay as they were).
  // Connected only around the two memory points, so no inspector session is attached while the
  // CPU per op is measured.
  const trims0 = await mallocTrims(api);
  const gc0 = await Inspector.memoryAfterGcAt(ctx.inspectPort);
  await awaitMallocTrim(api, trims0);
  const rssGc0 = await steadyRss(pids.apiserver);
  // Those GCs are V8's last-resort GCs: they drop optimized code and shrink the young
  // generation, so the measured creates used to pay for compiling (docs/perf/README.md,
  // 2026-11-25 04:24). The write path is compiled again on more warm-up objects, created and
  // updated once each as the measured ones are; they stay, and the memory figures count them.
  const W = cfg.rewarmCreates;
  step(`re-warm after the memory point's full GCs: ${W} creates and updates of more warm-up objects (apiserver only, unmeasured)`);
  await serverCreates(api, pids, warmupNamespace, cfg.warmupCreates, W, C, cfg.pad);
  await serverUpdates(api, pids, warmupNamespace, cfg.warmupCreates + W, cfg.warmupCreates, W, C);

  const R = cfg.rounds;
  // Round r creates objects [first(r), first(r + 1)) on each side.
  const first = (r: number): number => Math.floor((r * N) / R);
  step(`creates: ${N} per side in ${R} alternating rounds, ${C} in flight`);
  const creates = await alternate(
    R,
    (r) => serverCreates(api, pids, benchNamespace, first(r), first(r + 1) - first(r), C, cfg.pad),
    (r) => etcdCreates(etcd, pids, benchNamespace, ctx.template, ctx.templateName, first(r), first(r + 1) - first(r), C),
  );
  results.creates = creates;
  const createErrors = [...creates.server.rounds, ...creates.etcd.rounds].find((x) => x.errors);
  if (createErrors) throw new Error(`create errors: ${createErrors.firstError}`);
  await sleep(1000);
  const rssCreated = await steadyRss(pids.apiserver);

  if (phases.has('gets')) {
    // Each phase starts with an unmeasured round of its own operation per side: what the previous
    // phase did not run may have been flushed by its GCs (V8's bytecode ageing) or re-specialised
    // for that phase's types, and is compiled again here.
    step(`GETs: a warm-up round of ${cfg.warmupSeconds} s per side, then ${R} alternating rounds of ${cfg.getSeconds} s per side, ${C} in flight`);
    await serverGets(api, pids, benchNamespace, N, C, cfg.warmupSeconds);
    await etcdGets(etcd, pids, benchNamespace, N, C, cfg.warmupSeconds);
    results.gets = await alternate(
      R,
      () => serverGets(api, pids, benchNamespace, N, C, cfg.getSeconds),
      () => etcdGets(etcd, pids, benchNamespace, N, C, cfg.getSeconds),
    );
  }

  if (phases.has('updates')) {
    const U = cfg.rmwUpdates;
    // The warm-up round updates objects the measured rounds do not (the ones after theirs), so
    // every measured update is still an object's first.
    step(`read-modify-write updates: a warm-up round of ${U} per side, then ${R} alternating rounds of ${U} per side, ${C} in flight`);
    await serverUpdates(api, pids, benchNamespace, N, R * U, U, C);
    await etcdUpdates(etcd, pids, benchNamespace, N, R * U, U, C);
    results.updates = await alternate(
      R,
      (r) => serverUpdates(api, pids, benchNamespace, N, r * U, U, C),
      (r) => etcdUpdates(etcd, pids, benchNamespace, N, r * U, U, C),
    );
    const updateErrors = [...results.updates.server.rounds, ...results.updates.etcd.rounds].find((x) => x.errors);
    if (updateErrors) throw new Error(`update errors: ${updateErrors.firstError}`);
  }

  if (phases.has('lists')) {
    const lists = {} as NonNullable<Results['lists']>;
    for (const mode of ['unpaged', 'paged', 'rv0'] as ListMode[]) {
      step(`lists ${mode}: 1 checked + ${cfg.listIterations} timed per side`);
      const sCheck = await serverListOnce(api, benchNamespace, mode, true, cfg.pageSize);
      const eCheck = await etcdListOnce(etcd, benchNamespace, mode, cfg.pageSize);
      if (sCheck.items !== N || eCheck.items !== N) throw new Error(`list ${mode}: expected ${N} items, server returned ${sCheck.items}, etcd ${eCheck.items}`);
      const server = await serverLists(api, pids, benchNamespace, mode, cfg.listIterations, cfg.pageSize);
      const etcdList = await etcdLists(etcd, pids, benchNamespace, mode, cfg.listIterations, cfg.pageSize);
      server.items = sCheck.items;
      etcdList.items = eCheck.items;
      lists[mode] = { server, etcd: etcdList };
    }
    results.lists = lists;
  }

  if (!results.lists) return; // the memory figure is defined after a full list
  // The re-warm's objects are counted below, so they are listed once too, as the measured ones were.
  await serverListOnce(api, warmupNamespace, 'unpaged', false, cfg.pageSize);
  await sleep(1000);
  const rss1 = await steadyRss(pids.apiserver);
  const heap1 = await heapUsed(api);
  const etcdRss1 = await steadyRss(pids.etcd);
  const trims1 = await mallocTrims(api);
  const gc1 = await Inspector.memoryAfterGcAt(ctx.inspectPort);
  await awaitMallocTrim(api, trims1);
  const rssGc1 = await steadyRss(pids.apiserver);
  const trimCalls = await mallocTrims(api);
  const trimSeconds = await metricSum(api, 'apiserver_malloc_trim_seconds_total');
  // Served JSON size per object, as an item of the unpaged list.
  const objectJsonBytes = Math.round(results.lists.unpaged.server.bytes / N);
  // Every object created between the two points: the measured ones and the re-warm's.
  const M = N + cfg.rewarmCreates;
  results.memoryPerObject = {
    objects: M,
    objectJsonBytes,
    storedValueBytes: ctx.template.length,
    rssBeforeBytes: rss0,
    rssAfterCreatesBytes: rssCreated,
    rssAfterBytes: rss1,
    perObjectBytes: Math.round((rss1 - rss0) / M),
    heapUsedBeforeBytes: heap0,
    heapUsedAfterBytes: heap1,
    heapPerObjectBytes: Math.round((heap1 - heap0) / M),
    etcdPerObjectBytes: Math.round((etcdRss1 - etcdRss0) / M),
    rssAfterGcBeforeBytes: rssGc0,
    rssAfterGcAfterBytes: rssGc1,
    retainedRssPerObjectBytes: Math.round((rssGc1 - rssGc0) / M),
    retainedHeapPerObjectBytes: Math.round((gc1.heapUsed + gc1.arrayBuffers - gc0.heapUsed - gc0.arrayBuffers) / M),
    memoryAfterGc: { before: gc0, after: gc1 },
    ...(trimCalls === undefined ? {} : { mallocTrims: { calls: trimCalls, seconds: trimSeconds ?? 0 } }),
    note:
      'perObjectBytes is the apiserver\'s RSS growth (watch cache plus heap high-water) from before the creates to after the GETs and full lists ' +
      '(heap high-water and allocator retention from serving them), divided by the objects created in between (the measured ones and the re-warm\'s); rssAfterCreatesBytes is the same point before the GETs and lists; ' +
      'heap-used growth is what remained reachable or not yet collected. The etcd figure is etcd\'s RSS growth over the same span (the raw side\'s objects are in it too). ' +
      'The retained figures are the same two points after full GCs through the inspector, RSS read once the server\'s malloc_trim that follows a full GC has run (cmd/freedMemory.ts; at once without it): RSS, and V8 heap used plus array buffers (the stored values).',
  };
}

/** GET and full-list passes in JSON, Protobuf and CBOR over the same N objects (bench/formats.ts). */
async function formatsPhase(ctx: Ctx): Promise<void> {
  const { cfg } = ctx;
  ctx.results.formats = await runFormats({
    api: ctx.api,
    pids: ctx.pids,
    namespace: benchNamespace,
    objects: cfg.objects,
    concurrency: cfg.concurrency,
    getSeconds: cfg.getSeconds,
    listIterations: cfg.listIterations,
    log: step,
  });
}

/** The same GET against bare node:https with the same TLS: the HTTP framework's share. */
async function barePhase(ctx: Ctx): Promise<void> {
  const { cfg, api, cluster, results } = ctx;
  const C = cfg.concurrency;
  step(`HTTP framework overhead: ${cfg.getSeconds} s of GETs against bare node:https`);
  const path = `/api/v1/namespaces/${benchNamespace}/serviceaccounts/${objectName(0)}`;
  const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-bare-'));
  try {
    writeFileSync(join(tmp, 'body.json'), (await api.expect('GET', path, [200])).body);
    const bare = await startBareServer(cluster.pkiDir, await freePort(), join(tmp, 'body.json'));
    try {
      const bareClient = api.withBase(bare.url, C);
      const barePids = { apiserver: bare.pid, etcd: cluster.etcdPid };
      const op = async (): Promise<void> => {
        const r = await bareClient.request('GET', path);
        if (r.status !== 200) throw new Error(`bare GET: HTTP ${r.status}`);
      };
      await runLoad({ concurrency: C, seconds: cfg.warmupSeconds, pids: barePids }, op);
      const bareResult = await runLoad({ concurrency: C, seconds: cfg.getSeconds, pids: barePids }, op);
      bareClient.agent.destroy();
      results.bareHttpGets = { server: results.gets!.server, bare: bareResult };
    } finally {
      await bare.stop();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function watchPhase(ctx: Ctx): Promise<void> {
  const { cfg, api, pids, results } = ctx;
  const wo = { watchers: cfg.watchers, updates: cfg.updates, rate: cfg.watchRate, pad: cfg.pad, drainSeconds: cfg.drainSeconds, warmupUpdates: cfg.watchWarmup };
  step(`watch: ${wo.watchers} HTTPS watchers, ${wo.updates} merge-patches at ${wo.rate}/s`);
  const idlePath = `/api/v1/namespaces/${watchNamespace}/serviceaccounts?watch=1&timeoutSeconds=1800`;
  const firstOpening = await idleWatchersAfterGc(api, pids.apiserver, ctx.inspectPort, idlePath, wo.watchers);
  const watchServer = await serverWatchers(api, pids, wo, ctx.inspectPort);
  watchServer.idle.firstOpeningAfterGc = firstOpening;
  step(`watch: ${wo.watchers} idle HTTP/1.1 watches on bare node:https, twice, for Node's floor`);
  watchServer.idle.bareAfterGc = await bareIdle(ctx, idlePath, wo.watchers);
  step(`watch: ${wo.watchers} etcd3 watchers, ${wo.updates} puts at ${wo.rate}/s`);
  // The watchers get their own client (one gRPC channel) so the puts do not share it.
  const watchClient = etcdClient(ctx.cluster.etcd.endpoint);
  try {
    const watchEtcd = await etcdWatchers(ctx.etcd, watchClient, pids, ctx.template, wo);
    results.watch = { server: watchServer, etcd: watchEtcd };
  } finally {
    watchClient.close();
  }
}

/** bareIdleWatchers against a bare node:https process with the apiserver's TLS settings. */
async function bareIdle(ctx: Ctx, path: string, n: number): Promise<{ first: IdleAfterGc; second: IdleAfterGc }> {
  const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-bare-'));
  try {
    writeFileSync(join(tmp, 'body.json'), '{}');
    const inspectPort = await freePort();
    const bare = await startBareServer(ctx.cluster.pkiDir, await freePort(), join(tmp, 'body.json'), [`--inspect=127.0.0.1:${inspectPort}`]);
    try {
      const client = ctx.api.withBase(bare.url, 1);
      const first = await idleWatchersAfterGc(client, bare.pid, inspectPort, path, n);
      return { first, second: await idleWatchersAfterGc(client, bare.pid, inspectPort, path, n) };
    } finally {
      await bare.stop();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** managedFields cost vs the previous release, and the apply round trip (bench/fieldTracking.ts). */
async function trackingPhase(ctx: Ctx): Promise<void> {
  const { cfg } = ctx;
  ctx.results.fieldTracking = await runFieldTracking({
    cluster: ctx.cluster,
    admin: ctx.api,
    baselineRevision: cfg.trackingBaseline,
    rounds: cfg.trackingRounds,
    objects: cfg.trackingObjects,
    concurrency: cfg.concurrency,
    pad: cfg.pad,
    log: step,
  });
}

/** Create throughput and CPU with 0, 10 and 100 bound admission policies (bench/policies.ts). */
async function policiesPhase(ctx: Ctx): Promise<void> {
  const { cfg } = ctx;
  const counts = cfg.policyCounts.split(',').map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 0)) throw new Error(`--policyCounts: not a list of counts: ${cfg.policyCounts}`);
  ctx.results.policies = await runPolicies({
    client: ctx.api,
    pids: ctx.pids,
    creates: cfg.policyCreates,
    concurrency: cfg.concurrency,
    pad: cfg.pad,
    counts,
    rounds: cfg.policyRounds,
    log: step,
  });
}

/** /livez while creates carry a value that backtracks exponentially in JavaScript's RegExp (bench/hostileRegex.ts). */
async function hostileRegexPhase(ctx: Ctx): Promise<void> {
  const { cfg } = ctx;
  step(`hostile regex: /livez idle, then under ${cfg.hostileRegexSeconds} s of creates whose value is 'a'×${cfg.hostileRegexInput}+'!' against ^(a+)+$`);
  ctx.results.hostileRegex = await runHostileRegex({
    client: ctx.api,
    pids: ctx.pids,
    seconds: cfg.hostileRegexSeconds,
    concurrency: cfg.hostileRegexConcurrency,
    inputLength: cfg.hostileRegexInput,
  });
}

/** Custom resources beside padded ServiceAccounts, their memory, CRD install times (bench/crd.ts). */
async function crdPhase(ctx: Ctx): Promise<void> {
  const { cfg } = ctx;
  ctx.results.crd = await runCrd({
    client: ctx.api,
    pids: ctx.pids,
    inspectPort: ctx.inspectPort,
    objects: cfg.objects,
    concurrency: cfg.concurrency,
    rounds: cfg.rounds,
    warmupCreates: cfg.warmupCreates,
    rewarmCreates: cfg.rewarmCreates,
    warmupSeconds: cfg.warmupSeconds,
    getSeconds: cfg.getSeconds,
    rmwUpdates: cfg.rmwUpdates,
    listIterations: cfg.listIterations,
    pageSize: cfg.pageSize,
    watch: { watchers: cfg.watchers, updates: cfg.crdWatchUpdates, rate: cfg.watchRate, drainSeconds: cfg.drainSeconds, warmupUpdates: cfg.watchWarmup },
    memoryObjects: cfg.crdMemoryObjects,
    installCrds: cfg.crdInstalls,
    installPollMs: cfg.crdPollMs,
    log: step,
  });
}

/** RBAC vs AlwaysAllow for a non-masters user's GETs (bench/authz.ts). */
async function authzPhase(ctx: Ctx): Promise<void> {
  const { cfg } = ctx;
  step(`authz: bench-user GETs, RBAC vs AlwaysAllow, ${cfg.getSeconds} s each, ${cfg.concurrency} in flight`);
  ctx.results.authz = await runAuthz({
    cluster: ctx.cluster,
    admin: ctx.api,
    namespace: benchNamespace,
    concurrency: cfg.concurrency,
    warmupSeconds: cfg.warmupSeconds,
    seconds: cfg.getSeconds,
    extraPolicyObjects: cfg.authzPolicyObjects,
    pad: cfg.pad,
    log: step,
  });
}

/** Certificate issuance through svc-controller-manager, and CsrSigner.sign in-process (bench/csr.ts). */
async function csrPhase(ctx: Ctx): Promise<void> {
  const { cfg } = ctx;
  step(`csr: ${cfg.csrs} node client CSRs sequentially and ${cfg.csrs} in a burst (${cfg.csrConcurrency} in flight), then ${cfg.csrSignatures} in-process signatures per key type`);
  const r = await runCsr({
    cluster: ctx.cluster,
    admin: ctx.api,
    csrs: cfg.csrs,
    concurrency: cfg.csrConcurrency,
    signatures: cfg.csrSignatures,
    pids: ctx.pids,
    log: step,
  });
  ctx.results.csr = r;
  const v = r.verification;
  if (v.failures.length) throw new Error(`csr: of ${v.certificates} certificates ${v.chainsToCa} chain to the CA, ${v.matchesRequest} match their request, ${v.autoApproved} were AutoApproved: ${v.failures.join('; ')}`);
}

function scaleFromFlags(cfg: Config): Promise<number> {
  const sizes = cfg.scaleSizes.split(',').map(Number);
  if (sizes.length < 1 || sizes.some((n) => !Number.isInteger(n) || n < 2)) throw new Error('--scaleSizes: comma-separated object counts');
  const opts = { sizes, watchers: cfg.scaleWatchers, h1Watchers: cfg.scaleH1Watchers, streamsPerSession: 100, updates: 20, pageSize: cfg.pageSize, pad: cfg.pad, out: cfg.out, timeLimitSeconds: cfg.timeLimitSeconds };
  return scaleMain(opts, () => startCluster(8));
}

async function main(): Promise<number> {
  const cfg = parseArgs(process.argv.slice(2));
  if (cfg.scale) {
    if (cfg.apiserverRevision) throw new Error('--apiserverRevision does not apply to --scale');
    return scaleFromFlags(cfg);
  }
  if (cfg.apiserverRevision && (cfg.phases === 'all' || !cfg.phases.split(',').every((p) => revisionPhases.includes(p)))) {
    throw new Error(`--apiserverRevision measures only ${revisionPhases.join(',')}: pass --phases with some of them`);
  }
  const etcdBin = findEtcdBinary();
  const machine = describeMachine(repoRoot);
  const results: Results = {
    startedAt: new Date().toISOString(),
    durationSeconds: 0,
    environment: {
      node: process.version,
      cpus: machine.cpus,
      etcd: execFileSync(etcdBin, ['--version'], { encoding: 'utf8' }).split('\n')[0],
      etcdDataDir: '',
      machine,
    },
    config: Object.fromEntries(Object.entries(cfg).filter(([k]) => k !== 'out')),
  };
  let cluster: Cluster | undefined;
  let finished = false;
  const finish = (): string => {
    if (finished) return '';
    finished = true;
    results.durationSeconds = Math.round((Date.now() - t0) / 1000);
    machine.loadAtEnd = currentLoad();
    results.targets = evaluateTargets(results);
    const file = writeResults(cfg.out, results);
    process.stdout.write(`\n${renderTable(results)}\n\nTargets:\n`);
    for (const t of results.targets) process.stdout.write(`  ${t.met ? 'met ' : 'MISS'}  ${t.name}: ${t.value} (target ${t.target})\n`);
    process.stdout.write(`\nJSON: ${file}\n`);
    return file;
  };
  // Bounded in time whatever happens: past the limit, report what there is and stop.
  const watchdog = setTimeout(() => {
    results.error = `time limit of ${cfg.timeLimitSeconds} s reached`;
    step(results.error);
    finish();
    void (cluster?.stop() ?? Promise.resolve()).finally(() => process.exit(2));
  }, cfg.timeLimitSeconds * 1000);
  const onSignal = (): void => {
    void (cluster?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const phases = cfg.phases === 'all' ? allPhases : cfg.phases.split(',');
    for (const p of phases) if (!allPhases.includes(p)) throw new Error(`--phases: unknown phase ${p}`);
    // First and alone: start times measured on a quiet machine, before the shared cluster runs.
    if (phases.includes('startup')) {
      step(`startup: ${cfg.startupRuns} starts each of --ephemeral, the in-process test server and etcd + server`);
      results.startup = await runStartup({ runs: cfg.startupRuns, log: step });
    }
    if (phases.some((p) => clusterPhases.includes(p))) {
      step('starting etcd and svc-apiserver');
      const profileDir = cfg.profile ? join(cfg.out, 'profiles') : undefined;
      if (profileDir) mkdirSync(profileDir, { recursive: true });
      // The formats phase needs CBOR, which is alpha and off by default (as upstream 1.32).
      const wantsFormats = phases.includes('formats');
      const inspectPort = await freePort();
      const revision = cfg.apiserverRevision ? buildRevision(cfg.apiserverRevision, step) : undefined;
      if (revision) results.environment.apiserverRevision = revision.subject;
      cluster = await startCluster(
        cfg.concurrency,
        profileDir,
        wantsFormats ? ['--feature-gates=CBORServingAndStorage=true'] : [],
        [`--inspect=127.0.0.1:${inspectPort}`, ...cfg.nodeFlags.split(',').filter(Boolean)],
        revision?.root,
      );
      results.environment.etcdDataDir = cluster.etcd.dataDir;
      await bench(cfg, cluster, results, inspectPort);
    }
  } catch (e) {
    results.error = (e as Error).stack ?? String(e);
    step(`failed: ${results.error}`);
  } finally {
    clearTimeout(watchdog);
    step('stopping');
    await cluster?.stop();
  }
  finish();
  return results.error ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    // Bad flags and the like: the message is enough.
    process.stderr.write(`bench: ${(e as Error).message ?? e}\n`);
    process.exit(1);
  },
);
