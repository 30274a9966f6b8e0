// Two svc-controller-managers on one cluster: one Lease holder, every approved CSR issued exactly
// once, failover after SIGKILL within the lease duration, and a SIGTERM that hands the lease
// back at once. Lease 4 s, renew deadline 3 s, retry period 1 s (jittered up to +120 %).
import type { ClientRequest } from 'node:http';
import { eventually, startCluster, type TestCluster, type WatchEventLine } from './support/apiserver';
import { type ControllerManagerProcess, fastLeaderElection, leaderLeasePath, startControllerManager } from './support/controllerManager';
import { approve, awaitIssued, createCsr, csrPath, signers, type Csr } from './support/csrs';
import { makeCsr } from './support/openssl';

const leaseDurationMs = 4_000;
const retryPeriodMs = 1_000;
/** client-go's JitterUntil factor: a candidate retries every retryPeriod × [1, 2.2]. */
const maxRetryWaitMs = retryPeriodMs * 2.2;

interface LeaseObject {
  spec: { holderIdentity?: string; leaseDurationSeconds?: number; leaseTransitions?: number; acquireTime?: string; renewTime?: string };
}

let c: TestCluster;
const processes: ControllerManagerProcess[] = [];
const timings: string[] = [];

beforeAll(async () => {
  c = await startCluster();
}, 60_000);
afterAll(async () => {
  if (timings.length) console.info(`leader election timings:\n  ${timings.join('\n  ')}`);
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  await c?.stop();
});

async function startCandidate(): Promise<ControllerManagerProcess> {
  const p = await startControllerManager(c, { extraArgs: fastLeaderElection });
  processes.push(p);
  return p;
}

const leasePathOf = (namespace: string): string => `/apis/coordination.svc.io/v1/namespaces/${namespace}/leases`;

async function leaseListVersion(): Promise<string> {
  return (await c.apiserver.request('GET', leasePathOf('svc-system'))).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
}

async function lease(): Promise<LeaseObject['spec']> {
  const r = await c.apiserver.request('GET', leaderLeasePath);
  expect(r.status).toBe(200);
  return r.json<LeaseObject>().spec;
}

/** The process whose /metrics says it leads, once exactly one of `candidates` does. */
async function soleLeader(candidates: ControllerManagerProcess[], timeoutMs = 10_000): Promise<ControllerManagerProcess> {
  return eventually(
    async () => {
      const leading = [];
      for (const p of candidates) if (await p.isLeader()) leading.push(p);
      return leading.length === 1 && leading[0];
    },
    timeoutMs,
    'exactly one leader',
  );
}

/** Approved client CSRs, created and approved concurrently. */
async function approvedCsrs(prefix: string, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  const requests = names.map((n) => makeCsr('ecdsa', `/CN=${n}`).csrPem);
  await Promise.all(
    names.map(async (n, i) => {
      await createCsr(c.apiserver, n, { request: requests[i], signerName: signers.client });
      await approve(c.apiserver, n);
    }),
  );
  return names;
}

/** Every CSR event from `resourceVersion` on, with the time it arrived. */
class CsrEvents {
  readonly events: { at: number; type: string; csr: Csr }[] = [];
  private readonly req: ClientRequest;
  constructor(resourceVersion: string) {
    this.req = c.apiserver.watchRequest(
      `${csrPath}?watch=true&resourceVersion=${resourceVersion}`,
      (line) => {
        const e = JSON.parse(line) as { type: string; object: Csr };
        this.events.push({ at: Date.now(), type: e.type, csr: e.object });
      },
      () => undefined,
    );
  }
  of(name: string): { at: number; type: string; csr: Csr }[] {
    return this.events.filter((e) => e.csr.metadata?.name === name);
  }
  close(): void {
    this.req.destroy();
  }
}

let a: ControllerManagerProcess;
let b: ControllerManagerProcess;
let leader: ControllerManagerProcess;
let standby: ControllerManagerProcess;

describe('two controller managers', () => {
  beforeAll(async () => {
    [a, b] = await Promise.all([startCandidate(), startCandidate()]);
  });

  test('the Lease names one holder, the only process that reports itself leader', async () => {
    leader = await soleLeader([a, b]);
    standby = leader === a ? b : a;
    const spec = await lease();
    expect(spec.holderIdentity).toBe(await leader.identity());
    expect(spec.holderIdentity).not.toBe(await standby.identity());
    expect(spec.leaseDurationSeconds).toBe(leaseDurationMs / 1000);
    expect(await standby.metric('leader_election_master_status', { name: 'svc-controller-manager' })).toBe(0);
    // The standby is healthy too: not leading is not a failure.
    expect(await standby.get('/healthz')).toEqual({ status: 200, body: 'ok' });
    // The leader keeps renewing (every retry period).
    const renewed = spec.renewTime;
    await eventually(async () => (await lease()).renewTime !== renewed, 3 * retryPeriodMs, 'a lease renewal');
  });

  test('20 approved CSRs are each issued exactly once, all by the leader', async () => {
    const list = await c.apiserver.request('GET', csrPath);
    const watch = new CsrEvents(list.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion);
    try {
      const started = Date.now();
      const names = await approvedCsrs('batch', 20);
      for (const n of names) await awaitIssued(c.apiserver, n);
      timings.push(`20 CSRs created + approved concurrently → all issued: ${Date.now() - started} ms`);
      await eventually(async () => names.every((n) => watch.of(n).some((e) => e.csr.status?.certificate)), 5_000, 'the watch to see every certificate');

      const latencies: number[] = [];
      for (const n of names) {
        const events = watch.of(n);
        const certificates = events.map((e) => e.csr.status?.certificate ?? '');
        // Exactly one event sets the certificate; no later event changes it.
        const sets = certificates.filter((cert, i) => cert && !(certificates[i - 1] ?? ''));
        expect({ n, sets: sets.length }).toEqual({ n, sets: 1 });
        const first = certificates.findIndex(Boolean);
        expect(new Set(certificates.slice(first))).toEqual(new Set([certificates[first]]));
        const approvedAt = events.find((e) => e.csr.status?.conditions?.some((x) => x.type === 'Approved'))?.at ?? NaN;
        latencies.push(events[first].at - approvedAt);
      }
      latencies.sort((x, y) => x - y);
      timings.push(`approved → issued (watch), 20 CSRs: median ${latencies[10]} ms, max ${latencies[19]} ms`);

      expect(await leader.metric('svc_csr_signed_total', { signer: signers.client })).toBe(20);
      const standbyMetrics = (await standby.get('/metrics')).body;
      expect(standbyMetrics).not.toMatch(/^svc_csr_signed_total\{/m);
      expect(standbyMetrics).not.toMatch(/^svc_csr_signing_failed_total\{/m);
    } finally {
      watch.close();
    }
  });

  test('after SIGKILL of the leader the standby takes over once the lease runs out, and signing resumes', async () => {
    const before = await lease();
    const survivorId = await standby.identity();
    const killed = Date.now();
    expect(await leader.stop('SIGKILL')).toBeNull();
    // Approved while nobody leads: it must be issued as soon as the survivor takes over.
    const [pending] = await approvedCsrs('after-kill', 1);

    await eventually(async () => (await lease()).holderIdentity === survivorId, leaseDurationMs + 2 * maxRetryWaitMs + 2_000, 'the survivor to hold the lease');
    const failover = Date.now() - killed;
    await awaitIssued(c.apiserver, pending, 5_000);
    const issued = Date.now() - killed;
    timings.push(`SIGKILL → survivor holds the lease: ${failover} ms; → the CSR approved meanwhile is issued: ${issued} ms`);

    // The survivor must see the lease unchanged for a whole lease duration, counted from when it saw
    // the last renewal (up to one jittered retry wait after it), then try again (up to one more).
    expect(failover).toBeLessThan(leaseDurationMs + 2 * maxRetryWaitMs + 1_000);
    expect(issued).toBeLessThan(leaseDurationMs + 2 * maxRetryWaitMs + 2_000);
    expect(await standby.isLeader()).toBe(true);
    expect((await lease()).leaseTransitions).toBe((before.leaseTransitions ?? 0) + 1);
    [leader, standby] = [standby, leader];
  });

  test('SIGTERM of the leader hands the lease back at once: the standby leads within about two retry periods', async () => {
    standby = await startCandidate();
    const standbyId = await standby.identity();
    expect(await standby.isLeader()).toBe(false);
    expect((await lease()).holderIdentity).toBe(await leader.identity());

    const leases = c.apiserver.watch(`${leasePathOf('svc-system')}?watch=true&resourceVersion=${await leaseListVersion()}`);
    try {
      const terminated = Date.now();
      const exit = leader.stop('SIGTERM');
      const specOf = (e: WatchEventLine): LeaseObject['spec'] | undefined => e.object.spec as LeaseObject['spec'] | undefined;
      const isRelease = (e: WatchEventLine): boolean => e.type === 'MODIFIED' && !specOf(e)?.holderIdentity;
      await leases.waitFor((events) => events.some(isRelease), 5_000);
      const released = Date.now() - terminated;
      // client-go's release: no holder, a one-second lease, so that candidates need not wait it out.
      const release = leases.events.find(isRelease);
      expect(release && specOf(release)).toMatchObject({ leaseDurationSeconds: 1 });
      await eventually(async () => (await lease()).holderIdentity === standbyId, 10_000, 'the standby to hold the lease');
      const takeover = Date.now() - terminated;
      expect(await exit).toBe(0);
      timings.push(`SIGTERM → lease released: ${released} ms; → standby holds the lease: ${takeover} ms (lease duration ${leaseDurationMs} ms)`);
      // The standby's next attempt after the release takes it: one jittered retry wait.
      expect(takeover).toBeLessThan(maxRetryWaitMs + 1_500);
      expect(await standby.isLeader()).toBe(true);
    } finally {
      leases.close();
    }

    const [after] = await approvedCsrs('after-term', 1);
    await awaitIssued(c.apiserver, after, 5_000);
  });
});
