// The admission-policy phase (issue 12 item 5): create throughput with 0, 10 and 100
// ValidatingAdmissionPolicies (3 validations each, every one bound with Deny) matching the
// created ServiceAccounts. The figure of merit is the apiserver CPU per create, as it is less
// sensitive than throughput to other work on a shared machine; throughput is reported beside it.
// Each count is measured in slices under equal conditions (runPolicies) and reported as the
// median slice, as the other phases report the median of alternating rounds.
import { groups } from '../lib/api/product';
import type { HttpsClient } from './httpsClient';
import { round, sleep, sumCpu, type LoadResult, type Pids } from './load';
import { ensureNamespace, serverCreates } from './serverLoad';

const api = `/apis/${groups.admissionregistration}/v1`;
const denyPrefix = 'bench-deny-';

export interface PolicyCount {
  policies: number;
  /** The count's slices summed (ops, seconds, CPU; latency p50 the median slice's, p99/max the worst). */
  creates: LoadResult;
  /** apiserver CPU microseconds per create: the median of the count's slices. */
  cpuUsPerCreate: number;
  /** creates/s: the median of the count's slices. */
  opsPerSec: number;
  /** Each slice's apiserver CPU µs per create, in the order measured (the spread). */
  sliceCpuUsPerCreate: number[];
}

/** One measured slice: which round, its place in that round's order, the bound count, the CPU per create. */
export interface PolicySlice {
  round: number;
  position: number;
  policies: number;
  cpuUsPerCreate: number;
  opsPerSec: number;
}

export interface PoliciesResult {
  counts: PolicyCount[];
  /** (CPU per create with 10 policies − with 0) ÷ CPU per create with 0, in percent (per-count medians). */
  tenPoliciesPercent: number;
  /** The same from throughput: (creates/s with 0 ÷ with 10 − 1), in percent (per-count medians). */
  tenPoliciesThroughputPercent: number;
  /** Time from the last binding change until exactly the intended bindings were in force (ms), per slice. */
  enforcedAfterMs: number[];
  /** Every slice in the order measured. */
  slices: PolicySlice[];
}

function policy(i: number): Record<string, unknown> {
  return {
    apiVersion: `${groups.admissionregistration}/v1`,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: `bench-policy-${i}` },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['serviceaccounts'] }] },
      validations: [
        { expression: "object.metadata.name.startsWith('sa-') || object.metadata.name.startsWith('bench-')", message: 'names start with sa- or bench-' },
        { expression: "!has(object.metadata.labels) || !('forbidden' in object.metadata.labels)", message: 'no forbidden label' },
        { expression: `object.metadata.name != '${denyPrefix}${i}'`, message: `policy ${i} denies ${denyPrefix}${i}` },
      ],
    },
  };
}

function binding(i: number): Record<string, unknown> {
  return {
    apiVersion: `${groups.admissionregistration}/v1`,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: `bench-binding-${i}` },
    spec: { policyName: `bench-policy-${i}`, validationActions: ['Deny'] },
  };
}

/**
 * Polls until exactly `n` bindings are in force: policy n-1 denies its probe (so all before it
 * are loaded too) and policy n's probe is admitted (its binding is gone).
 */
async function waitBound(client: HttpsClient, ns: string, n: number): Promise<number> {
  const t0 = Date.now();
  const probe = async (i: number): Promise<number> => {
    const r = await client.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: `${denyPrefix}${i}` } });
    if (r.status === 201) await client.expect('DELETE', `/api/v1/namespaces/${ns}/serviceaccounts/${denyPrefix}${i}`, [200]);
    return r.status;
  };
  for (;;) {
    const lastIn = n === 0 || (await probe(n - 1)) === 422;
    const nextOut = (await probe(n)) === 201;
    if (lastIn && nextOut) return Date.now() - t0;
    if (Date.now() - t0 > 30_000) throw new Error(`policies: ${n} bindings not in force after 30 s`);
    await sleep(20);
  }
}

const round1 = (x: number): number => round(x, 1);

/** Sums of the slices measured at one policy count. */
function combine(slices: LoadResult[]): LoadResult {
  const ops = slices.reduce((a, r) => a + r.ops, 0);
  const seconds = slices.reduce((a, r) => a + r.seconds, 0);
  const worst = (f: (r: LoadResult) => number): number => Math.max(...slices.map(f));
  return {
    ops,
    errors: slices.reduce((a, r) => a + r.errors, 0),
    seconds: round(seconds, 3),
    opsPerSec: round(ops / seconds, 1),
    // Per-slice percentiles cannot be merged exactly: the median of medians and the worst p99/max.
    latencyMs: { p50: [...slices.map((r) => r.latencyMs.p50)].sort((a, b) => a - b)[Math.floor(slices.length / 2)]!, p99: worst((r) => r.latencyMs.p99), max: worst((r) => r.latencyMs.max) },
    cpu: sumCpu(slices),
    ...(slices.find((r) => r.firstError) ? { firstError: slices.find((r) => r.firstError)!.firstError } : {}),
  };
}

/** The counts in round r's order: rotated by r, so each count takes each place in a round equally often. */
export function roundOrder<T>(counts: readonly T[], r: number): T[] {
  const k = counts.length ? r % counts.length : 0;
  return [...counts.slice(k), ...counts.slice(0, k)];
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Polls until the status controller has type-checked every bench policy (its writes and the recompiles they cause are over). */
async function waitPoliciesChecked(client: HttpsClient, count: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const list = (await client.expect('GET', `${api}/validatingadmissionpolicies`, [200])).json<{ items: { metadata: { name: string; generation?: number }; status?: { observedGeneration?: number } }[] }>();
    const checked = list.items.filter((p) => p.metadata.name.startsWith('bench-policy-') && (p.status?.observedGeneration ?? 0) >= (p.metadata.generation ?? 1));
    if (checked.length >= count) return;
    if (Date.now() - t0 > 60_000) throw new Error(`policies: ${checked.length} of ${count} policies type-checked after 60 s`);
    await sleep(100);
  }
}

/**
 * All policies are created once (and type-checked by the status controller before anything is
 * measured); the bound count changes between slices by creating and deleting bindings. Every
 * slice runs under the same conditions: one unmeasured round first warms each count's path; the
 * counts rotate through the places of a round (roundOrder); each slice's objects are deleted
 * after it, so every slice creates the same names into the same keyspace; and a pause before
 * each slice lets the asynchronous work of the bindings, probes and deletes (watch events,
 * caches) finish outside it. Each count's figure is the median of its slices. No GC is forced
 * before a slice: after a full GC (the inspector's collectGarbage, or a plain gc()) the next
 * 1,000 creates cost about twice the CPU (220 → 510 µs), so it would not measure the create.
 */
export async function runPolicies(o: {
  client: HttpsClient;
  pids: Pids;
  creates: number;
  concurrency: number;
  pad: number;
  counts: readonly number[];
  rounds: number;
  log(msg: string): void;
}): Promise<PoliciesResult> {
  const max = Math.max(...o.counts);
  const ns = 'bench-policies';
  const slices = new Map<number, LoadResult[]>(o.counts.map((n) => [n, []]));
  const enforcedAfterMs: number[] = [];
  const sliceLog: PolicySlice[] = [];
  const perSlice = Math.max(1, Math.floor(o.creates / o.rounds));
  let bound = 0;
  await ensureNamespace(o.client, ns);
  const bind = async (n: number): Promise<void> => {
    for (; bound < n; bound++) await o.client.expect('POST', `${api}/validatingadmissionpolicybindings`, [201], binding(bound));
    for (; bound > n; bound--) await o.client.expect('DELETE', `${api}/validatingadmissionpolicybindings/bench-binding-${bound - 1}`, [200]);
    enforcedAfterMs.push(await waitBound(o.client, ns, n));
  };
  const clear = async (): Promise<void> => {
    await o.client.expect('DELETE', `/api/v1/namespaces/${ns}/serviceaccounts`, [200]);
  };
  const settle = (): Promise<void> => sleep(250);
  try {
    // max + 1 policies: policy `max` is never bound, its probe tells that binding `max` is gone
    for (let i = 0; i <= max; i++) await o.client.expect('POST', `${api}/validatingadmissionpolicies`, [201], policy(i));
    await waitPoliciesChecked(o.client, max + 1);
    // Warm-up (JIT of the create path and of each count's admission path), not measured.
    for (const n of o.counts) {
      await bind(n);
      const r = await serverCreates(o.client, o.pids, ns, 0, perSlice, o.concurrency, o.pad);
      if (r.errors) throw new Error(`policies: warm-up create errors with ${n} policies: ${r.firstError}`);
      await clear();
    }
    enforcedAfterMs.length = 0;
    for (let round = 0; round < o.rounds; round++) {
      const order = roundOrder(o.counts, round);
      for (let position = 0; position < order.length; position++) {
        const n = order[position];
        await bind(n);
        await settle();
        o.log(`policies: round ${round + 1}/${o.rounds}, ${n} bound, ${perSlice} creates, ${o.concurrency} in flight`);
        const r = await serverCreates(o.client, o.pids, ns, 0, perSlice, o.concurrency, o.pad);
        if (r.errors) throw new Error(`policies: create errors with ${n} policies: ${r.firstError}`);
        slices.get(n)!.push(r);
        sliceLog.push({ round, position, policies: n, cpuUsPerCreate: round1((r.cpu.apiserver * 1e6) / r.ops), opsPerSec: r.opsPerSec });
        await clear();
      }
    }
  } finally {
    // Later phases run without them.
    for (let i = 0; i < bound; i++) await o.client.request('DELETE', `${api}/validatingadmissionpolicybindings/bench-binding-${i}`);
    for (let i = 0; i <= max; i++) await o.client.request('DELETE', `${api}/validatingadmissionpolicies/bench-policy-${i}`);
  }
  const counts: PolicyCount[] = o.counts.map((n) => {
    const mine = sliceLog.filter((x) => x.policies === n);
    return {
      policies: n,
      creates: combine(slices.get(n)!),
      cpuUsPerCreate: round1(median(mine.map((x) => x.cpuUsPerCreate))),
      opsPerSec: round1(median(mine.map((x) => x.opsPerSec))),
      sliceCpuUsPerCreate: mine.map((x) => x.cpuUsPerCreate),
    };
  });
  const at = (n: number): PolicyCount | undefined => counts.find((c) => c.policies === n);
  const zero = at(0);
  const ten = at(10);
  return {
    counts,
    tenPoliciesPercent: zero && ten ? round(((ten.cpuUsPerCreate - zero.cpuUsPerCreate) / zero.cpuUsPerCreate) * 100, 1) : NaN,
    tenPoliciesThroughputPercent: zero && ten ? round((zero.opsPerSec / ten.opsPerSec - 1) * 100, 1) : NaN,
    enforcedAfterMs,
    slices: sliceLog,
  };
}
