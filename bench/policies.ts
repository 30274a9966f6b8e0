// The admission-policy phase (issue 12 item 5): create throughput with 0, 10 and 100
// ValidatingAdmissionPolicies (3 validations each, every one bound with Deny) matching the
// created ServiceAccounts. The figure of merit is the apiserver CPU per create, as it is less
// sensitive than throughput to other work on a shared machine; throughput is reported beside it.
import { groups } from '../lib/api/product';
import type { HttpsClient } from './httpsClient';
import { round, runLoad, sleep, type LoadResult, type Pids } from './load';
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
  /** Time from the last binding's creation until the probe was denied (ms), per count. */
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

/** Polls until the last policy denies its probe: every policy before it is then loaded too. */
async function waitEnforced(client: HttpsClient, ns: string, last: number): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    const r = await client.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: `${denyPrefix}${last}` } });
    if (r.status === 422) return Date.now() - t0;
    if (r.status === 201) await client.expect('DELETE', `/api/v1/namespaces/${ns}/serviceaccounts/${denyPrefix}${last}`, [200]);
    if (Date.now() - t0 > 30_000) throw new Error(`policies: ${last + 1} policies not enforced after 30 s (probe got HTTP ${r.status})`);
    await sleep(50);
  }
}

export async function runPolicies(o: {
  client: HttpsClient;
  pids: Pids;
  creates: number;
  concurrency: number;
  warmupCreates: number;
  pad: number;
  counts: readonly number[];
  log(msg: string): void;
}): Promise<PoliciesResult> {
  const counts: PolicyCount[] = [];
  const enforcedAfterMs: number[] = [];
  let have = 0;
  try {
    for (const n of o.counts) {
      for (; have < n; have++) {
        await o.client.expect('POST', `${api}/validatingadmissionpolicies`, [201], policy(have));
        await o.client.expect('POST', `${api}/validatingadmissionpolicybindings`, [201], binding(have));
      }
      const ns = `bench-policies-${n}`;
      await ensureNamespace(o.client, ns);
      if (n > 0) enforcedAfterMs.push(await waitEnforced(o.client, ns, n - 1));
      o.log(`policies: ${n} bound, ${o.creates} creates, ${o.concurrency} in flight`);
      await serverCreates(o.client, o.pids, ns, 1_000_000, o.warmupCreates, o.concurrency, o.pad);
      const creates = await serverCreates(o.client, o.pids, ns, 0, o.creates, o.concurrency, o.pad);
      if (creates.errors) throw new Error(`policies: create errors with ${n} policies: ${creates.firstError}`);
      counts.push({ policies: n, creates, cpuUsPerCreate: round((creates.cpu.apiserver * 1e6) / creates.ops, 1) });
    }
  } finally {
    // Later phases run without them.
    for (let i = 0; i < have; i++) {
      await o.client.request('DELETE', `${api}/validatingadmissionpolicybindings/bench-binding-${i}`);
      await o.client.request('DELETE', `${api}/validatingadmissionpolicies/bench-policy-${i}`);
    }
  }
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
