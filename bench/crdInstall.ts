// How long a CRD takes from its create to being usable: its Established condition, its group
// version in discovery (/apis/<group>/<version> answers 200) and its OpenAPI v3 document
// (/openapi/v3/apis/<group>/<version> answers 200). Measured one CRD at a time (each installed
// beside the ones before it) and for a burst of CRDs created at once. Each CRD has its own group,
// as operators from different vendors do, so each is a new discovery group.
import { performance } from 'node:perf_hooks';
import type { HttpsClient } from './httpsClient';
import { percentiles, round, sleep, type Percentiles } from './load';
import { crdName, crdSetLabel, crdsPath, crdVersion, databaseCrd } from './crdObjects';

export interface CrdInstallOptions {
  client: HttpsClient;
  /** CRDs installed one at a time, then as many again at once. */
  crds: number;
  /** Between polls of one CRD's three answers (ms). */
  pollMs: number;
  /** Any CRD not usable this long after its create fails the phase (s). */
  timeoutSeconds: number;
  log(msg: string): void;
}

export interface CrdInstallResult {
  /** One CRD at a time; CRD i is created with i − 1 of them (and the phase's own) installed. */
  sequential: {
    crds: number;
    /** Create sent → Established=True seen. */
    establishedMs: Percentiles;
    /** Create sent → Established, discovery and OpenAPI v3 all answered. */
    servedMs: Percentiles;
    discoveryMs: Percentiles;
    openapiMs: Percentiles;
    /** Every CRD's served time, in install order. */
    servedEachMs: number[];
  };
  /** crds more, every create sent at once (the client has maxSockets in flight). */
  burst: {
    crds: number;
    /** First create sent → every create answered. */
    createdMs: number;
    /** First create sent → every one of them Established (seen by polling a labelled list). */
    allEstablishedMs: number;
    /** First create sent → every one Established and answering discovery and OpenAPI v3. */
    allServedMs: number;
  };
  pollMs: number;
  /** CRDs installed at the end (the phase's own included). */
  installedAtEnd: number;
}

interface CrdStatus {
  metadata: { name: string };
  status?: { conditions?: { type: string; status: string }[] };
}

const established = (crd: CrdStatus): boolean => crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;

const groupOf = (set: string, i: number): string => `${set}${i}.crd.bench.example.com`;
const discoveryPath = (group: string): string => `/apis/${group}/${crdVersion}`;
const openapiPath = (group: string): string => `/openapi/v3/apis/${group}/${crdVersion}`;

async function answers200(client: HttpsClient, path: string): Promise<boolean> {
  return (await client.request('GET', path)).status === 200;
}

/** Polls one CRD's three answers until all are there; times from `start` (performance.now(), ms) of each. */
export async function awaitCrdUsable(client: HttpsClient, group: string, start: number, o: Pick<CrdInstallOptions, 'pollMs' | 'timeoutSeconds'>): Promise<{ established: number; discovery: number; openapi: number }> {
  const at = { established: NaN, discovery: NaN, openapi: NaN };
  const deadline = start + o.timeoutSeconds * 1000;
  for (;;) {
    await Promise.all([
      Number.isNaN(at.established) &&
        client.request('GET', `${crdsPath}/${crdName(group)}`).then((r) => {
          if (r.status === 200 && established(r.json<CrdStatus>())) at.established = performance.now() - start;
        }),
      Number.isNaN(at.discovery) && answers200(client, discoveryPath(group)).then((ok) => ok && (at.discovery = performance.now() - start)),
      Number.isNaN(at.openapi) && answers200(client, openapiPath(group)).then((ok) => ok && (at.openapi = performance.now() - start)),
    ]);
    if (!Object.values(at).some(Number.isNaN)) return at;
    if (performance.now() > deadline) throw new Error(`CRD ${crdName(group)} not usable after ${o.timeoutSeconds} s: ${JSON.stringify(at)}`);
    await sleep(o.pollMs);
  }
}

const p = (values: number[]): Percentiles => {
  const x = percentiles(values);
  return { p50: round(x.p50, 1), p99: round(x.p99, 1), max: round(x.max, 1) };
};

export async function runCrdInstall(o: CrdInstallOptions): Promise<CrdInstallResult> {
  const { client } = o;
  const one = { established: [] as number[], discovery: [] as number[], openapi: [] as number[], served: [] as number[] };
  o.log(`crd install: ${o.crds} CRDs one at a time (each its own group), polling every ${o.pollMs} ms`);
  for (let i = 0; i < o.crds; i++) {
    const group = groupOf('s', i);
    const start = performance.now();
    await client.expect('POST', crdsPath, [201], databaseCrd(group, 'sequential'));
    const at = await awaitCrdUsable(client, group, start, o);
    one.established.push(at.established);
    one.discovery.push(at.discovery);
    one.openapi.push(at.openapi);
    one.served.push(Math.max(at.established, at.discovery, at.openapi));
  }

  o.log(`crd install: ${o.crds} more CRDs created at once`);
  const burstGroups = Array.from({ length: o.crds }, (_, i) => groupOf('b', i));
  const bodies = burstGroups.map((g) => databaseCrd(g, 'burst'));
  const start = performance.now();
  const deadline = start + o.timeoutSeconds * 1000;
  await Promise.all(bodies.map((b) => client.expect('POST', crdsPath, [201], b)));
  const createdMs = performance.now() - start;
  let allEstablishedMs = NaN;
  for (;;) {
    const list = await client.expect('GET', `${crdsPath}?labelSelector=${crdSetLabel}%3Dburst`, [200]);
    const items = list.json<{ items: CrdStatus[] }>().items;
    if (items.length === o.crds && items.every(established)) {
      allEstablishedMs = performance.now() - start;
      break;
    }
    if (performance.now() > deadline) throw new Error(`burst: ${items.filter(established).length} of ${o.crds} CRDs Established after ${o.timeoutSeconds} s`);
    await sleep(o.pollMs);
  }
  let waiting = burstGroups.flatMap((g) => [discoveryPath(g), openapiPath(g)]);
  while (waiting.length) {
    const ok = await Promise.all(waiting.map((path) => answers200(client, path)));
    waiting = waiting.filter((_, i) => !ok[i]);
    if (!waiting.length) break;
    if (performance.now() > deadline) throw new Error(`burst: ${waiting.length} discovery or OpenAPI paths still not 200 after ${o.timeoutSeconds} s, e.g. ${waiting[0]}`);
    await sleep(o.pollMs);
  }
  const allServedMs = performance.now() - start;
  const installed = (await client.expect('GET', crdsPath, [200])).json<{ items: unknown[] }>().items.length;
  return {
    sequential: {
      crds: o.crds,
      establishedMs: p(one.established),
      servedMs: p(one.served),
      discoveryMs: p(one.discovery),
      openapiMs: p(one.openapi),
      servedEachMs: one.served.map((x) => round(x, 1)),
    },
    burst: { crds: o.crds, createdMs: round(createdMs, 1), allEstablishedMs: round(allEstablishedMs, 1), allServedMs: round(allServedMs, 1) },
    pollMs: o.pollMs,
    installedAtEnd: installed,
  };
}
