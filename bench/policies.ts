// The admission-policy phase (issue 12 item 5): create throughput with 0, 10 and 100
// ValidatingAdmissionPolicies (3 validations each, every one bound with Deny) matching the
// created ServiceAccounts. The figure of merit is the apiserver CPU per create, as it is less
// sensitive than throughput to other work on a shared machine; throughput is reported beside it.
import { groups } from '../lib/api/product';
import type { HttpsClient } from './httpsClient';
import { round, sleep, type LoadResult, type Pids } from './load';
import { ensureNamespace, serverCreates } from './serverLoad';

const api = `/apis/${groups.admissionregistration}/v1`;
const denyPrefix = 'bench-deny-';

export interface PolicyCount {
  policies: number;
  creates: LoadResult;
  /** apiserver CPU microseconds per create. */
  cpuUsPerCreate: number;
}

export interface PoliciesResult {
  counts: PolicyCount[];
  /** (CPU per create with 10 policies − with 0) ÷ CPU per create with 0, in percent. */
  tenPoliciesPercent: number;
  /** The same from throughput: (creates/s with 0 ÷ with 10 − 1), in percent. */
  tenPoliciesThroughputPercent: number;
  /** Time from the last binding change until exactly the intended bindings were in force (ms), per slice. */
  enforcedAfterMs: number[];
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

/** Sums of the slices measured at one policy count. */
function combine(slices: LoadResult[]): LoadResult {
  const ops = slices.reduce((a, r) => a + r.ops, 0);
  const seconds = slices.reduce((a, r) => a + r.seconds, 0);
  const sum = (f: (r: LoadResult) => number): number => round(slices.reduce((a, r) => a + f(r), 0), 2);
  const worst = (f: (r: LoadResult) => number): number => Math.max(...slices.map(f));
  return {
    ops,
    errors: slices.reduce((a, r) => a + r.errors, 0),
    seconds: round(seconds, 3),
    opsPerSec: round(ops / seconds, 1),
    // Per-slice percentiles cannot be merged exactly: the median of medians and the worst p99/max.
    latencyMs: { p50: [...slices.map((r) => r.latencyMs.p50)].sort((a, b) => a - b)[Math.floor(slices.length / 2)]!, p99: worst((r) => r.latencyMs.p99), max: worst((r) => r.latencyMs.max) },
    cpu: { apiserver: sum((r) => r.cpu.apiserver), etcd: sum((r) => r.cpu.etcd), bench: sum((r) => r.cpu.bench) },
    ...(slices.find((r) => r.firstError) ? { firstError: slices.find((r) => r.firstError)!.firstError } : {}),
  };
}

/**
 * All policies are created once; the bound count changes between slices by creating and deleting
 * bindings, and the counts alternate for `rounds` rounds, so that heap growth and machine noise
 * spread over all counts instead of favouring the first.
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
  const perSlice = Math.max(1, Math.floor(o.creates / o.rounds));
  let bound = 0;
  let next = 0;
  await ensureNamespace(o.client, ns);
  // JIT warm-up of the create path, before any count is measured.
  await serverCreates(o.client, o.pids, ns, 2_000_000, perSlice, o.concurrency, o.pad);
  try {
    // max + 1 policies: policy `max` is never bound, its probe tells that binding `max` is gone
    for (let i = 0; i <= max; i++) await o.client.expect('POST', `${api}/validatingadmissionpolicies`, [201], policy(i));
    for (let round = 0; round < o.rounds; round++) {
      for (const n of o.counts) {
        for (; bound < n; bound++) await o.client.expect('POST', `${api}/validatingadmissionpolicybindings`, [201], binding(bound));
        for (; bound > n; bound--) await o.client.expect('DELETE', `${api}/validatingadmissionpolicybindings/bench-binding-${bound - 1}`, [200]);
        enforcedAfterMs.push(await waitBound(o.client, ns, n));
        o.log(`policies: round ${round + 1}/${o.rounds}, ${n} bound, ${perSlice} creates, ${o.concurrency} in flight`);
        const r = await serverCreates(o.client, o.pids, ns, next, perSlice, o.concurrency, o.pad);
        next += perSlice;
        if (r.errors) throw new Error(`policies: create errors with ${n} policies: ${r.firstError}`);
        slices.get(n)!.push(r);
      }
    }
  } finally {
    // Later phases run without them.
    for (let i = 0; i < bound; i++) await o.client.request('DELETE', `${api}/validatingadmissionpolicybindings/bench-binding-${i}`);
    for (let i = 0; i <= max; i++) await o.client.request('DELETE', `${api}/validatingadmissionpolicies/bench-policy-${i}`);
  }
  const counts: PolicyCount[] = o.counts.map((n) => {
    const creates = combine(slices.get(n)!);
    return { policies: n, creates, cpuUsPerCreate: round((creates.cpu.apiserver * 1e6) / creates.ops, 1) };
  });
  const at = (n: number): PolicyCount | undefined => counts.find((c) => c.policies === n);
  const zero = at(0);
  const ten = at(10);
  return {
    counts,
    tenPoliciesPercent: zero && ten ? round(((ten.cpuUsPerCreate - zero.cpuUsPerCreate) / zero.cpuUsPerCreate) * 100, 1) : NaN,
    tenPoliciesThroughputPercent: zero && ten ? round((zero.creates.opsPerSec / ten.creates.opsPerSec - 1) * 100, 1) : NaN,
    enforcedAfterMs,
  };
}
