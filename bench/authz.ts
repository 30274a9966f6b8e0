// The authorization phase: what RBAC costs a request. system:masters (the bench's admin) skips
// RBAC entirely, so the phase issues a plain user's client certificate (CN bench-user, O bench),
// gives the authorizer a realistic policy to walk (the bootstrap policy plus ~50 objects for other
// users, then ONE RoleBinding for bench-user), and GETs one ServiceAccount as that user against
// the RBAC server and against a second apiserver on the same etcd with --authorization-mode=AlwaysAllow.
import { readFileSync } from 'node:fs';
import { createPrivateKey } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { groups } from '../lib/api/product';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../lib/api/rbac';
import { generatePrivateKey, issueCertificate, privateKeyToPem, type KeyAlgorithm } from '../lib/signing';
import { Cluster, startExtraApiserver } from './cluster';
import { HttpsClient, type Credentials } from './httpsClient';
import { percentiles, round, runLoad, sleep, sumCpu, type LoadResult, type Pids } from './load';
import { objectName, serviceAccount } from './objects';

/** The measured user: not in system:masters, so every request walks the RBAC policy. */
export const benchUser = { commonName: 'bench-user', organizations: ['bench'] } as const;

const rbacApi = `/apis/${groups.rbac}/v1`;
const rbacVersion = `${groups.rbac}/v1`;

/** A client certificate for `subject`, signed by the cluster CA in pkiDir (same key type as the CA). */
export async function issueClientCredentials(pkiDir: string, subject: { commonName: string; organizations: readonly string[] }): Promise<Credentials> {
  const ca = readFileSync(join(pkiDir, 'ca.crt'), 'utf8');
  const caKey = readFileSync(join(pkiDir, 'ca.key'), 'utf8');
  const alg = keyAlgorithmOf(caKey);
  const key = generatePrivateKey(alg);
  const now = Date.now();
  const issued = await issueCertificate({
    caCert: ca,
    caKey,
    publicKey: key,
    subject: { commonName: subject.commonName, organizations: [...subject.organizations] },
    usages: ['digital signature', ...(alg === 'rsa-2048' ? ['key encipherment'] : []), 'client auth'],
    // Backdated a little: the server's clock is this machine's, but be safe against rounding.
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 24 * 3600_000),
  });
  return { ca, cert: issued.pem, key: privateKeyToPem(key) };
}

function keyAlgorithmOf(pem: string): KeyAlgorithm {
  const k = createPrivateKey(pem);
  if (k.asymmetricKeyType === 'rsa') return 'rsa-2048';
  if (k.asymmetricKeyType === 'ed25519') return 'ed25519';
  return k.asymmetricKeyDetails?.namedCurve === 'secp384r1' ? 'ecdsa-p384' : 'ecdsa-p256';
}

/** One object to POST, and where. */
export interface PolicyObject {
  path: string;
  body: ClusterRole | ClusterRoleBinding | Role | RoleBinding;
}

const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({ verbs, apiGroups, resources });
const user = (name: string): Subject => ({ kind: 'User', apiGroup: groups.rbac, name });
const group = (name: string): Subject => ({ kind: 'Group', apiGroup: groups.rbac, name });
const serviceAccountSubject = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', apiGroup: '', name, namespace });

/** Rules of the kind teams get: reads and writes over a rotating set of resources, none of them ServiceAccount GETs by bench-user. */
function teamRules(i: number): PolicyRule[] {
  const core = ['configmaps', 'secrets', 'events', 'serviceaccounts', 'namespaces'];
  const read = ['get', 'list', 'watch'];
  const write = ['create', 'update', 'patch', 'delete'];
  return [
    rule(read, [''], [core[i % core.length], core[(i + 1) % core.length]]),
    rule(write, [''], [core[(i + 2) % core.length]]),
    rule(read, [groups.coordination], ['leases']),
    rule(['get', 'list'], [groups.certificates], ['certificatesigningrequests']),
    rule(['create'], [groups.authorization], ['selfsubjectaccessreviews']),
  ];
}

/**
 * Policy for other users: `extra` objects in the proportions of a small shared cluster (a fifth
 * ClusterRoles, a tenth Roles in the namespace, and the rest bindings split between cluster-wide
 * and the namespace), so both binding walks the authorizer does for a namespaced request have
 * entries that are not bench-user's.
 */
export function otherUsersPolicy(namespace: string, extra: number): PolicyObject[] {
  const clusterRoles = Math.max(1, Math.round(extra / 5));
  const roles = Math.max(1, Math.round(extra / 10));
  const bindings = Math.max(0, extra - clusterRoles - roles);
  const clusterBindings = Math.ceil(bindings / 2);
  const roleBindings = bindings - clusterBindings;
  const out: PolicyObject[] = [];
  for (let i = 0; i < clusterRoles; i++) {
    out.push({ path: `${rbacApi}/clusterroles`, body: { apiVersion: rbacVersion, kind: 'ClusterRole', metadata: { name: `team-${i}` }, rules: teamRules(i) } });
  }
  for (let i = 0; i < roles; i++) {
    out.push({
      path: `${rbacApi}/namespaces/${namespace}/roles`,
      body: { apiVersion: rbacVersion, kind: 'Role', metadata: { name: `app-${i}`, namespace }, rules: teamRules(i + 1) },
    });
  }
  for (let i = 0; i < clusterBindings; i++) {
    out.push({
      path: `${rbacApi}/clusterrolebindings`,
      body: {
        apiVersion: rbacVersion,
        kind: 'ClusterRoleBinding',
        metadata: { name: `team-${i}` },
        subjects: [user(`dev-${i}`), group(`team-${i % clusterRoles}`), serviceAccountSubject('svc-system', `operator-${i}`)],
        roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: `team-${i % clusterRoles}` },
      },
    });
  }
  for (let i = 0; i < roleBindings; i++) {
    // Alternate between a namespace Role and a ClusterRole (bootstrap `view`/`edit` or a team's).
    const roleRef = i % 2 === 0 ? { apiGroup: groups.rbac, kind: 'Role', name: `app-${i % roles}` } : { apiGroup: groups.rbac, kind: 'ClusterRole', name: i % 4 === 1 ? 'view' : `team-${i % clusterRoles}` };
    out.push({
      path: `${rbacApi}/namespaces/${namespace}/rolebindings`,
      body: {
        apiVersion: rbacVersion,
        kind: 'RoleBinding',
        metadata: { name: `dev-${i}`, namespace },
        subjects: [user(`ns-dev-${i}`), serviceAccountSubject(namespace, `app-${i}`)],
        roleRef,
      },
    });
  }
  return out;
}

/** The Role and the ONE RoleBinding that let `userName` GET ServiceAccounts in `namespace`. */
export function grantPolicy(namespace: string, userName: string): PolicyObject[] {
  return [
    {
      path: `${rbacApi}/namespaces/${namespace}/roles`,
      body: { apiVersion: rbacVersion, kind: 'Role', metadata: { name: 'bench-serviceaccount-reader', namespace }, rules: [rule(['get'], [''], ['serviceaccounts'])] },
    },
    {
      path: `${rbacApi}/namespaces/${namespace}/rolebindings`,
      body: {
        apiVersion: rbacVersion,
        kind: 'RoleBinding',
        metadata: { name: 'bench-user-serviceaccount-reader', namespace },
        subjects: [user(userName)],
        roleRef: { apiGroup: groups.rbac, kind: 'Role', name: 'bench-serviceaccount-reader' },
      },
    },
  ];
}

/** POSTs the objects in order (a re-run on the same etcd finds them: 409 is fine). */
export async function createPolicy(admin: HttpsClient, objects: readonly PolicyObject[]): Promise<void> {
  for (const o of objects) await admin.expect('POST', o.path, [201, 409], o.body);
}

/** Counts of the RBAC objects the authorizer walks for a request in `namespace`. */
export interface PolicySize {
  clusterRoles: number;
  clusterRoleBindings: number;
  roles: number;
  roleBindings: number;
  /** How many of these the phase created (the rest is the bootstrap policy). */
  added: number;
}

async function countItems(admin: HttpsClient, path: string): Promise<number> {
  return (await admin.expect('GET', path, [200])).json<{ items: unknown[] }>().items.length;
}

async function policySize(admin: HttpsClient, namespace: string, added: number): Promise<PolicySize> {
  return {
    clusterRoles: await countItems(admin, `${rbacApi}/clusterroles`),
    clusterRoleBindings: await countItems(admin, `${rbacApi}/clusterrolebindings`),
    roles: await countItems(admin, `${rbacApi}/namespaces/${namespace}/roles`),
    roleBindings: await countItems(admin, `${rbacApi}/namespaces/${namespace}/rolebindings`),
    added,
  };
}

/** Polls until GET path answers `status`; returns how long it took (ms). */
export async function waitForStatus(client: HttpsClient, path: string, status: number, timeoutMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    const r = await client.request('GET', path);
    if (r.status === status) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`GET ${path}: still HTTP ${r.status} after ${timeoutMs} ms, waiting for ${status}: ${r.text().slice(0, 300)}`);
    await sleep(20);
  }
}

/** One client and server measured in the phase. */
export interface GetTarget {
  client: HttpsClient;
  pids: Pids;
}

export interface InterleavedResult {
  result: LoadResult;
  /** GETs/s of each slice, in time order: the spread shows how noisy the machine was. */
  sliceOpsPerSec: number[];
}

/**
 * GETs of one path on each target for `seconds` in all, as `rounds` alternating slices (the order
 * rotating per round) after an uncounted warm-up of `warmupSeconds` each: on a machine shared
 * with other work, drift then lands on every target alike instead of on whichever ran last.
 * Any non-200 counts as an error. Latency percentiles are over all slices' samples.
 */
export async function measureGetsInterleaved(
  targets: readonly GetTarget[],
  path: string,
  concurrency: number,
  warmupSeconds: number,
  seconds: number,
  rounds: number,
): Promise<InterleavedResult[]> {
  const samples = targets.map((): number[] => []);
  const slices = targets.map((): LoadResult[] => []);
  const opFor = (t: number, record: boolean) => async (): Promise<void> => {
    const t0 = performance.now();
    const r = await targets[t].client.request('GET', path);
    if (r.status !== 200) throw new Error(`GET ${path}: HTTP ${r.status}: ${r.text().slice(0, 300)}`);
    if (record) samples[t].push(performance.now() - t0);
  };
  for (let t = 0; t < targets.length; t++) await runLoad({ concurrency, seconds: warmupSeconds, pids: targets[t].pids }, opFor(t, false));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < targets.length; k++) {
      const t = (round + k) % targets.length;
      slices[t].push(await runLoad({ concurrency, seconds: seconds / rounds, pids: targets[t].pids }, opFor(t, true)));
    }
  }
  return slices.map((s, t) => ({ result: combineSlices(s, samples[t]), sliceOpsPerSec: s.map((r) => r.opsPerSec) }));
}

/** One LoadResult from slices: sums, throughput over the summed time, percentiles over all samples. */
export function combineSlices(slices: readonly LoadResult[], latenciesMs: readonly number[]): LoadResult {
  const sum = (f: (r: LoadResult) => number): number => slices.reduce((a, r) => a + f(r), 0);
  const ops = sum((r) => r.ops);
  const seconds = sum((r) => r.seconds);
  const p = percentiles(latenciesMs);
  const firstError = slices.find((r) => r.firstError)?.firstError;
  return {
    ops,
    errors: sum((r) => r.errors),
    seconds: round(seconds, 3),
    opsPerSec: round(ops / seconds, 1),
    latencyMs: { p50: round(p.p50, 2), p99: round(p.p99, 2), max: round(p.max, 2) },
    cpu: sumCpu(slices),
    ...(firstError ? { firstError } : {}),
  };
}

export interface AuthzResult {
  path: string;
  user: string;
  groups: string[];
  policy: PolicySize;
  /** ms from creating bench-user's RoleBinding until its GET answered 200. */
  grantVisibleAfterMs: number;
  /** Each target's time was split into this many alternating slices. */
  rounds: number;
  /** bench-user on the RBAC server (the default --authorization-mode). */
  rbac: LoadResult;
  /** bench-user on a second apiserver, same etcd and PKI, --authorization-mode=AlwaysAllow. */
  alwaysAllow: LoadResult;
  /** admin (system:masters, allowed before RBAC is asked) on the RBAC server: the same process without the RBAC walk. */
  masters: LoadResult;
  /** Per target, GETs/s of each slice in time order. */
  sliceOpsPerSec: { rbac: number[]; alwaysAllow: number[]; masters: number[] };
  /** GETs/s RBAC ÷ AlwaysAllow. */
  rbacPerAllow: number;
  /** Latency p50 RBAC − AlwaysAllow, in µs, at the phase's concurrency. */
  p50DifferenceUs: number;
  /** GETs/s RBAC ÷ system:masters (same process). */
  rbacPerMasters: number;
  /** apiserver CPU per GET (µs) on each run. */
  cpuUsPerGet: { rbac: number; alwaysAllow: number; masters: number };
  /** CPU µs per GET, RBAC − AlwaysAllow and RBAC − system:masters: RBAC's cost per request. */
  cpuDifferenceUs: { vsAlwaysAllow: number; vsMasters: number };
  note: string;
}

const cpuUsPer = (r: LoadResult): number => (r.ops ? round((r.cpu.apiserver * 1e6) / r.ops, 1) : NaN);

/** Builds the result from the three runs (numbers derived here so the JSON and the table agree). */
export function summarizeAuthz(
  base: Pick<AuthzResult, 'path' | 'user' | 'groups' | 'policy' | 'grantVisibleAfterMs' | 'rounds' | 'sliceOpsPerSec'>,
  rbac: LoadResult,
  alwaysAllow: LoadResult,
  masters: LoadResult,
): AuthzResult {
  const cpu = { rbac: cpuUsPer(rbac), alwaysAllow: cpuUsPer(alwaysAllow), masters: cpuUsPer(masters) };
  return {
    ...base,
    rbac,
    alwaysAllow,
    masters,
    rbacPerAllow: round(rbac.opsPerSec / alwaysAllow.opsPerSec, 3),
    p50DifferenceUs: round((rbac.latencyMs.p50 - alwaysAllow.latencyMs.p50) * 1000, 0),
    rbacPerMasters: round(rbac.opsPerSec / masters.opsPerSec, 3),
    cpuUsPerGet: cpu,
    cpuDifferenceUs: { vsAlwaysAllow: round(cpu.rbac - cpu.alwaysAllow, 1), vsMasters: round(cpu.rbac - cpu.masters, 1) },
    note:
      "Closed loop at the phase's concurrency: a p50 difference includes queueing behind other requests, so it is not the authorizer's own time; " +
      'apiserver CPU µs per GET is the per-request cost. AlwaysAllow runs on a second, freshly started process (same etcd, PKI and flags otherwise); ' +
      'system:masters on the RBAC server takes the same path as AlwaysAllow (allowed before RBAC is asked) in the same process, so RBAC − masters ' +
      'excludes differences between processes. The three alternate in slices so drift on a shared machine falls on all alike.',
  };
}

export interface AuthzOptions {
  cluster: Cluster;
  admin: HttpsClient;
  namespace: string;
  concurrency: number;
  warmupSeconds: number;
  seconds: number;
  /** RBAC objects added for other users. */
  extraPolicyObjects: number;
  pad: number;
  log: (msg: string) => void;
}

const minWarmupSeconds = 3;

/** Slices of at least a second, at most five: short enough to alternate, long enough to reach steady state. */
export const roundsFor = (seconds: number): number => Math.max(1, Math.min(5, Math.floor(seconds)));

/** The whole phase: credentials, policy, the three measurements, the AlwaysAllow server started and stopped. */
export async function runAuthz(o: AuthzOptions): Promise<AuthzResult> {
  const { cluster, admin, namespace: ns, concurrency: C } = o;
  const name = objectName(0);
  const path = `/api/v1/namespaces/${ns}/serviceaccounts/${name}`;
  // Present after the creates phase; made here when the phase runs alone.
  await admin.expect('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, [201, 409], serviceAccount(name, o.pad));

  const creds = await issueClientCredentials(cluster.pkiDir, benchUser);
  const asUser = new HttpsClient(cluster.apiserverUrl, creds, C);
  try {
    // Proof that RBAC applies to this user: forbidden until the grant exists.
    await waitForStatus(asUser, path, 403, 5000);
    const others = otherUsersPolicy(ns, o.extraPolicyObjects);
    const grant = grantPolicy(ns, benchUser.commonName);
    o.log(`authz: ${others.length} RBAC objects for other users, then bench-user's Role and RoleBinding`);
    await createPolicy(admin, others);
    const grantStart = Date.now();
    await createPolicy(admin, grant);
    await waitForStatus(asUser, path, 200, 10_000);
    const grantVisibleAfterMs = Date.now() - grantStart;
    const policy = await policySize(admin, ns, others.length + grant.length);

    o.log('authz: starting a second apiserver with --authorization-mode=AlwaysAllow');
    const allowServer = await startExtraApiserver(cluster, ['--authorization-mode=AlwaysAllow'], C);
    const asUserAllow = asUser.withBase(allowServer.url, C);
    try {
      await waitForStatus(asUserAllow, path, 200, 10_000);
      const rounds = roundsFor(o.seconds);
      o.log(`authz: GETs as bench-user (RBAC, AlwaysAllow) and admin, ${o.seconds} s each in ${rounds} alternating slices, ${C} in flight`);
      const [r, a, m] = await measureGetsInterleaved(
        [
          { client: asUser, pids: { apiserver: cluster.apiserverPid, etcd: cluster.etcdPid } },
          { client: asUserAllow, pids: { apiserver: allowServer.pid, etcd: cluster.etcdPid } },
          { client: admin, pids: { apiserver: cluster.apiserverPid, etcd: cluster.etcdPid } },
        ],
        path,
        C,
        // A freshly started server needs more than the quick run's 1 s to settle (JIT), and the
        // other targets get the same.
        Math.max(o.warmupSeconds, minWarmupSeconds),
        o.seconds,
        rounds,
      );
      const [rbac, alwaysAllow, masters] = [r.result, a.result, m.result];
      const sliceOpsPerSec = { rbac: r.sliceOpsPerSec, alwaysAllow: a.sliceOpsPerSec, masters: m.sliceOpsPerSec };
      for (const [what, r] of [['RBAC', rbac], ['AlwaysAllow', alwaysAllow], ['system:masters', masters]] as const) {
        if (r.errors) throw new Error(`authz ${what}: ${r.errors} failed GETs: ${r.firstError}`);
      }
      return summarizeAuthz({ path, user: benchUser.commonName, groups: [...benchUser.organizations], policy, grantVisibleAfterMs, rounds, sliceOpsPerSec }, rbac, alwaysAllow, masters);
    } finally {
      asUserAllow.agent.destroy();
      allowServer.client.agent.destroy();
      await allowServer.stop();
    }
  } finally {
    asUser.agent.destroy();
  }
}
