// The hostile-regex phase (issue 26 item 1): a ValidatingAdmissionPolicy whose expression
// backtracks exponentially on JavaScript's RegExp (`^(a+)+$`, `^([a-z0-9]+)+$`), ConfigMap creates
// whose value is the hostile input, and /livez probed all the while. The figure of merit is
// /livez's latency under that load beside the same probe on the idle server: with a backtracking
// engine one 34-character value held the event loop for minutes; RE2 reads it once.
import { groups } from '../lib/api/product';
import type { HttpsClient } from './httpsClient';
import { percentiles, round, runLoad, sleep, type LoadResult, type Percentiles, type Pids } from './load';
import { ensureNamespace } from './serverLoad';

const api = `/apis/${groups.admissionregistration}/v1`;
const namespace = 'bench-hostile-regex';
const policyName = 'bench-hostile-regex';

export interface HostileRegexResult {
  /** Characters of the hostile value (`a` × n and one `!`). */
  inputLength: number;
  /** /livez on the idle server, then under the hostile creates (ms). */
  idleLivezMs: Percentiles;
  loadedLivezMs: Percentiles;
  livezProbes: number;
  /** The hostile creates (each denied by the policy, as it should be). */
  creates: LoadResult;
  /** Creates not answered 422 (the policy's denial): 0 when every hostile value was judged. */
  unexpectedAnswers: number;
}

const policy = {
  apiVersion: `${groups.admissionregistration}/v1`,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: policyName },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }], namespaceSelector: {}, objectSelector: {} },
    matchConditions: [{ name: 'bench-only', expression: `object.metadata.namespace == '${namespace}'` }],
    validations: [
      { expression: "object.data.v.matches('^(a+)+$')", message: 'v is a run of a' },
      { expression: "object.data.v.find('^([a-z0-9]+)+$') != ''", message: 'v is alphanumeric' },
    ],
  },
};

const binding = {
  apiVersion: `${groups.admissionregistration}/v1`,
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: policyName },
  spec: { policyName, validationActions: ['Deny'] },
};

/** /livez latencies (ms) probed one after another until `until` resolves. */
async function probeLivez(client: HttpsClient, until: Promise<unknown>, intervalMs: number): Promise<number[]> {
  const lat: number[] = [];
  let done = false;
  void until.finally(() => {
    done = true;
  });
  while (!done) {
    const t0 = performance.now();
    const r = await client.request('GET', '/livez');
    if (r.status !== 200) throw new Error(`/livez answered ${r.status}`);
    lat.push(performance.now() - t0);
    await sleep(intervalMs);
  }
  return lat;
}

export async function runHostileRegex(o: { client: HttpsClient; pids: Pids; seconds: number; concurrency: number; inputLength: number }): Promise<HostileRegexResult> {
  const { client } = o;
  await ensureNamespace(client, namespace);
  for (const [path, body] of [
    [`${api}/validatingadmissionpolicies`, policy],
    [`${api}/validatingadmissionpolicybindings`, binding],
  ] as const) {
    const r = await client.request('POST', path, body);
    if (r.status !== 201 && r.status !== 409) throw new Error(`creating ${body.kind}: ${r.status} ${r.text()}`);
  }
  const v = `${'a'.repeat(o.inputLength)}!`;
  const create = (i: number) => client.request('POST', `/api/v1/namespaces/${namespace}/configmaps`, { metadata: { name: `hostile-${i}` }, data: { v } });
  // The binding is in force once a hostile create is denied.
  const deadline = Date.now() + 30_000;
  for (let i = 0; ; i++) {
    const r = await create(1_000_000 + i);
    if (r.status === 422) break;
    if (Date.now() > deadline) throw new Error(`the hostile-regex policy was not enforced in 30 s (last answer ${r.status})`);
    await sleep(100);
  }
  const idle = await probeLivez(client, sleep(o.seconds * 500), 20);
  let unexpectedAnswers = 0;
  const load = runLoad({ pids: o.pids, concurrency: o.concurrency, seconds: o.seconds }, async (i) => {
    const r = await create(i);
    if (r.status !== 422) unexpectedAnswers++;
  });
  const loaded = await probeLivez(client, load, 20);
  const creates = await load;
  for (const path of [`${api}/validatingadmissionpolicybindings/${policyName}`, `${api}/validatingadmissionpolicies/${policyName}`]) await client.request('DELETE', path);
  const ms = (xs: number[]): Percentiles => {
    const p = percentiles(xs);
    return { p50: round(p.p50, 2), p99: round(p.p99, 2), max: round(p.max, 2) };
  };
  return { inputLength: o.inputLength, idleLivezMs: ms(idle), loadedLivezMs: ms(loaded), livezProbes: loaded.length, creates, unexpectedAnswers };
}
