// The certificate phase: svc-controller-manager issuing node client certificates on the real
// flow — a bootstrap identity creates CSRs, csrapproving approves them after a
// SubjectAccessReview in the requester's name, csrsigning signs them — timed from sending the
// create to the certificate arriving on a watch opened beforehand, one CSR at a time and as a
// burst; every certificate is then checked against the CA. For comparison, CsrSigner.sign's own
// throughput in this process, with the same CA.
import { createPrivateKey, webcrypto, X509Certificate, type KeyObject } from 'node:crypto';
import type { ClientRequest } from 'node:http';
import * as https from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { certificatesigningrequests, conditionTypes, groups, productDomain, signerNames, type CertificateSigningRequest } from '../lib/api';
import { bootstrapRoleNames } from '../lib/auth/rbac';
import { autoApprovedReason } from '../lib/controllers/csr';
import { x509 } from '../lib/signing';
import { CsrSigner, nodeCommonNamePrefix, nodesGroup } from '../lib/signing/signer';
import { createPolicy, issueClientCredentials, type PolicyObject } from './authz';
import { cpuSeconds, startControllerManager, type Cluster } from './cluster';
import { HttpsClient } from './httpsClient';
import { percentiles, round, type Percentiles } from './load';

/**
 * A bootstrap-token identity as upstream's token authenticator produces it (user prefix
 * `system:bootstrap:`, default group `system:bootstrappers`; k8s.io/cluster-bootstrap/token/api),
 * here carried by a client certificate.
 */
export const bootstrapIdentity = { commonName: 'system:bootstrap:bench', organizations: ['system:bootstrappers'] } as const;

const signerName = signerNames.apiserverClientSvclet;
/** What a node agent asks for with an ECDSA key (certificates.md §3: the svclet-client shape). */
const nodeClientUsages = ['digital signature', 'key encipherment', 'client auth'];
const csrApi = `/apis/${certificatesigningrequests.group}/${certificatesigningrequests.version}/${certificatesigningrequests.resource}`;
/** Every CSR the phase creates carries this prefix; the watch ignores the rest. */
const namePrefix = 'bench-csr-';
/** Uncounted CSRs before the sequential run: informers synced, code warm. */
const warmupCsrs = 5;
/** Longest wait for one certificate before the phase gives up. */
const issueTimeoutMs = 30_000;

/** As kubeadm binds its bootstrap tokens' group: allowed to create CSRs, and to have node client ones auto-approved. */
export function bootstrapPolicy(): PolicyObject[] {
  const binding = (name: string, role: string): PolicyObject => ({
    path: `/apis/${groups.rbac}/v1/clusterrolebindings`,
    body: {
      apiVersion: `${groups.rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name },
      subjects: [{ kind: 'Group', apiGroup: groups.rbac, name: bootstrapIdentity.organizations[0] }],
      roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: role },
    },
  });
  return [binding('bench-node-bootstrapper', bootstrapRoleNames.nodeBootstrapper), binding('bench-node-autoapprove-bootstrap', bootstrapRoleNames.nodeClient)];
}

export type RequestKeyKind = 'ecdsa-p256' | 'rsa-2048';

const keyParams: Record<RequestKeyKind, { gen: webcrypto.EcKeyGenParams | webcrypto.RsaHashedKeyGenParams; sign: { name: string; hash: string } }> = {
  'ecdsa-p256': { gen: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
  'rsa-2048': { gen: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } },
};

export function generateRequestKey(kind: RequestKeyKind): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(keyParams[kind].gen, true, ['sign', 'verify']) as Promise<webcrypto.CryptoKeyPair>;
}

/** One node client certificate request, ready to send. */
export interface NodeClientRequest {
  commonName: string;
  /** PEM "CERTIFICATE REQUEST". */
  pem: string;
  /** The requested public key (SPKI DER), to compare with the issued certificate's. */
  spki: Buffer;
}

/** A PKCS#10 request for CN `system:node:<node>`, O `system:nodes`, no SANs, signed with `keys`. */
export async function nodeClientRequest(node: string, kind: RequestKeyKind, keys: webcrypto.CryptoKeyPair): Promise<NodeClientRequest> {
  const commonName = `${nodeCommonNamePrefix}${node}`;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: new x509.Name([{ CN: [commonName] }, { O: [nodesGroup] }]),
    keys: keys as never,
    signingAlgorithm: keyParams[kind].sign as never,
  });
  return { commonName, pem: `${csr.toString('pem')}\n`, spki: Buffer.from(await webcrypto.subtle.exportKey('spki', keys.publicKey)) };
}

/** `count` requests for nodes bench-<from>…, each with its own key, as separate nodes would have. */
async function nodeRequests(from: number, count: number, kind: RequestKeyKind): Promise<NodeClientRequest[]> {
  const out: NodeClientRequest[] = [];
  for (let i = from; i < from + count; i++) out.push(await nodeClientRequest(`bench-${i}`, kind, await generateRequestKey(kind)));
  return out;
}

export function csrObject(name: string, request: NodeClientRequest): CertificateSigningRequest {
  return {
    apiVersion: `${certificatesigningrequests.group}/${certificatesigningrequests.version}`,
    kind: certificatesigningrequests.kind,
    metadata: { name },
    spec: { request: Buffer.from(request.pem).toString('base64'), signerName, usages: nodeClientUsages },
  };
}

/** What the watch saw of one CSR (performance.now() times of the chunks that carried it). */
interface Observed {
  approvedAt: number;
  issuedAt: number;
  object: CertificateSigningRequest;
}

interface Waiter {
  approvedAt: number;
  resolve(o: Observed): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

const trueCondition = (csr: CertificateSigningRequest, type: string): { reason?: string | null; message?: string | null } | undefined =>
  csr.status?.conditions?.find((c) => c.type === type && c.status === 'True');

/**
 * One watch on all CSRs, opened before any create: expect(name) registers interest before the
 * create is sent, and resolves when an event carrying that CSR's certificate arrives.
 */
class CsrWatch {
  private readonly waiters = new Map<string, Waiter>();
  private buffered = '';
  private readonly decoder = new StringDecoder('utf8');
  private ended?: Error;
  private readonly agent: https.Agent;
  private req?: ClientRequest;

  private constructor(client: HttpsClient) {
    this.agent = new https.Agent({ keepAlive: false, ...client.creds });
  }

  static open(client: HttpsClient): Promise<CsrWatch> {
    const w = new CsrWatch(client);
    return new Promise((resolve, reject) => {
      w.req = client.stream(
        `${csrApi}?watch=true`,
        w.agent,
        (status) => (status === 200 ? resolve(w) : reject(new Error(`CSR watch: HTTP ${status}`))),
        (chunk) => w.onData(chunk, performance.now()),
        (err) => {
          w.fail(new Error(`CSR watch ended${err ? `: ${err.message}` : ''}`));
          reject(err ?? new Error('CSR watch ended before its headers'));
        },
      );
    });
  }

  expect(name: string): Promise<Observed> {
    if (this.ended) return Promise.reject(this.ended);
    const p = new Promise<Observed>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(name);
        reject(new Error(`CSR ${name}: no certificate within ${issueTimeoutMs} ms`));
      }, issueTimeoutMs);
      this.waiters.set(name, { approvedAt: NaN, resolve, reject, timer });
    });
    // Handled here too, so a burst abandoned half-way leaves no unhandled rejections.
    p.catch(() => undefined);
    return p;
  }

  close(): void {
    this.fail(new Error('CSR watch closed'));
    this.req?.destroy();
    this.agent.destroy();
  }

  private fail(e: Error): void {
    this.ended ??= e;
    for (const [name, w] of this.waiters) {
      clearTimeout(w.timer);
      w.reject(new Error(`CSR ${name}: ${e.message}`));
    }
    this.waiters.clear();
  }

  private onData(chunk: Buffer, at: number): void {
    this.buffered += this.decoder.write(chunk);
    let nl: number;
    while ((nl = this.buffered.indexOf('\n')) >= 0) {
      const line = this.buffered.slice(0, nl);
      this.buffered = this.buffered.slice(nl + 1);
      if (!line.trim()) continue;
      let ev: { type: string; object: CertificateSigningRequest };
      try {
        ev = JSON.parse(line) as typeof ev;
      } catch {
        return this.fail(new Error(`unreadable watch event: ${line.slice(0, 300)}`));
      }
      this.onEvent(ev, at);
    }
  }

  private onEvent(ev: { type: string; object: CertificateSigningRequest }, at: number): void {
    if (ev.type === 'ERROR') return this.fail(new Error(`watch error event: ${JSON.stringify(ev.object).slice(0, 300)}`));
    const name = ev.object.metadata?.name ?? '';
    const w = this.waiters.get(name);
    if (!w) return;
    const csr = ev.object;
    const settle = (f: () => void): void => {
      clearTimeout(w.timer);
      this.waiters.delete(name);
      f();
    };
    if (Number.isNaN(w.approvedAt) && trueCondition(csr, conditionTypes.approved)) w.approvedAt = at;
    for (const bad of [conditionTypes.denied, conditionTypes.failed]) {
      const c = trueCondition(csr, bad);
      if (c) return settle(() => w.reject(new Error(`CSR ${name}: ${bad} (${c.reason}: ${c.message})`)));
    }
    if (csr.status?.certificate) settle(() => w.resolve({ approvedAt: w.approvedAt, issuedAt: at, object: csr }));
  }
}

/** One CSR as measured: sent, create answered, approved and issued as seen on the watch (performance.now() ms). */
interface Timed {
  name: string;
  request: NodeClientRequest;
  sentAt: number;
  createdAt: number;
  observed: Observed;
}

/** Creates one CSR as the bootstrap identity and waits for its certificate. */
async function createAndWait(watch: CsrWatch, bootstrap: HttpsClient, name: string, request: NodeClientRequest): Promise<Timed> {
  const issued = watch.expect(name);
  const sentAt = performance.now();
  await bootstrap.expect('POST', csrApi, [201], csrObject(name, request));
  const createdAt = performance.now();
  return { name, request, sentAt, createdAt, observed: await issued };
}

const pct = (values: number[]): Percentiles => {
  const p = percentiles(values);
  return { p50: round(p.p50, 2), p99: round(p.p99, 2), max: round(p.max, 2) };
};

export interface CsrSequentialResult {
  csrs: number;
  seconds: number;
  /** Create sent → certificate on the watch. */
  latencyMs: Percentiles;
  /** Create sent → 201. */
  createMs: Percentiles;
  /** Create sent → Approved condition on the watch. */
  toApprovedMs: Percentiles;
  /** Approved on the watch → certificate on the watch. */
  approvedToIssuedMs: Percentiles;
}

function sequentialResult(runs: Timed[], seconds: number): CsrSequentialResult {
  const approved = runs.filter((t) => !Number.isNaN(t.observed.approvedAt));
  return {
    csrs: runs.length,
    seconds: round(seconds, 3),
    latencyMs: pct(runs.map((t) => t.observed.issuedAt - t.sentAt)),
    createMs: pct(runs.map((t) => t.createdAt - t.sentAt)),
    toApprovedMs: pct(approved.map((t) => t.observed.approvedAt - t.sentAt)),
    approvedToIssuedMs: pct(approved.map((t) => t.observed.issuedAt - t.observed.approvedAt)),
  };
}

export interface CsrBurstResult {
  csrs: number;
  concurrency: number;
  /** First create sent → last create answered. */
  createsSeconds: number;
  /** First create sent → last certificate on the watch. */
  seconds: number;
  issuedPerSec: number;
  /** Per CSR: create sent → certificate on the watch. */
  latencyMs: Percentiles;
  cpuSeconds: { controllerManager: number; apiserver: number; etcd: number };
  /** CPU per issued certificate (ms) during the burst. */
  cpuMsPerCertificate: { controllerManager: number; apiserver: number; etcd: number };
  /** The controller's own signing time (its signing-duration histogram over the burst): count and mean ms. */
  controllerSign: { count: number; meanMs: number };
}

export interface SignThroughput {
  requestKey: RequestKeyKind;
  signatures: number;
  seconds: number;
  perSec: number;
  latencyMs: Percentiles;
}

export interface CsrVerification {
  certificates: number;
  /** Signed by the cluster CA (X509Certificate.verify with its key, and checkIssued). */
  chainsToCa: number;
  /** Subject CN/O and public key are the request's. */
  matchesRequest: number;
  /** Approved condition with reason AutoApproved. */
  autoApproved: number;
  /** The first few problems, one line each. */
  failures: string[];
}

export interface CsrResult {
  signerName: string;
  /** The cluster CA's key (the generated PKI's), which signs everything here. */
  caKey: string;
  requestKey: RequestKeyKind;
  controllerManager: { identity: string; leaseHeldAfterMs: number; warmupCsrs: number };
  sequential: CsrSequentialResult;
  burst: CsrBurstResult;
  /** CsrSigner.sign in the bench process, one at a time. */
  inProcess: { ecdsaP256: SignThroughput; rsa2048: SignThroughput };
  verification: CsrVerification;
  note: string;
}

export interface CsrOptions {
  cluster: Cluster;
  admin: HttpsClient;
  /** CSRs per mode. */
  csrs: number;
  /** Creates in flight in the burst. */
  concurrency: number;
  /** In-process signatures per request key type. */
  signatures: number;
  pids: { apiserver: number; etcd: number };
  log: (msg: string) => void;
}

/** Sum and count of the csrsigning duration histogram for our signer, from the controller manager's /metrics. */
async function signingHistogram(metrics: HttpsClient): Promise<{ sum: number; count: number }> {
  const text = (await metrics.expect('GET', '/metrics', [200])).text();
  const family = `${productDomain.split('.')[0]}_csr_signing_duration_seconds`;
  const read = (suffix: string): number => {
    const line = text.split('\n').find((l) => l.startsWith(`${family}_${suffix}{`) && l.includes(`signer="${signerName}"`));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  };
  return { sum: read('sum'), count: read('count') };
}

/** Describes a key: ecdsa-p256, rsa-2048, …. */
export function keyKind(key: KeyObject): string {
  const d = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'ec') return ({ prime256v1: 'ecdsa-p256', secp384r1: 'ecdsa-p384', secp521r1: 'ecdsa-p521' } as Record<string, string>)[d.namedCurve ?? ''] ?? `ec-${d.namedCurve}`;
  if (key.asymmetricKeyType === 'rsa') return `rsa-${d.modulusLength}`;
  return String(key.asymmetricKeyType);
}

/** Checks each issued certificate against the CA, its request and its approval. */
function verifyIssued(runs: readonly Timed[], caPem: string): CsrVerification {
  const ca = new X509Certificate(caPem);
  const v: CsrVerification = { certificates: 0, chainsToCa: 0, matchesRequest: 0, autoApproved: 0, failures: [] };
  const fail = (name: string, what: string): void => {
    if (v.failures.length < 5) v.failures.push(`${name}: ${what}`);
  };
  for (const t of runs) {
    const csr = t.observed.object;
    v.certificates++;
    try {
      const cert = new X509Certificate(Buffer.from(csr.status?.certificate ?? '', 'base64'));
      if (cert.verify(ca.publicKey) && cert.checkIssued(ca)) v.chainsToCa++;
      else fail(t.name, 'not signed by the cluster CA');
      const subject = cert.subject.split('\n');
      const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
      if (subject.includes(`CN=${t.request.commonName}`) && subject.includes(`O=${nodesGroup}`) && spki.equals(t.request.spki)) v.matchesRequest++;
      else fail(t.name, `subject ${JSON.stringify(cert.subject)} or public key differs from the request`);
    } catch (e) {
      fail(t.name, `unreadable certificate: ${(e as Error).message}`);
    }
    const approved = trueCondition(csr, conditionTypes.approved);
    if (approved?.reason === autoApprovedReason) v.autoApproved++;
    else fail(t.name, `Approved condition ${JSON.stringify(approved)}`);
  }
  return v;
}

/** CsrSigner.sign over pre-built requests, one at a time, after `warmup` uncounted ones. */
async function measureSigner(signer: CsrSigner, requestKey: RequestKeyKind, requests: readonly string[], warmup: number, caPem: string): Promise<SignThroughput> {
  const sign = async (request: string): Promise<string> => {
    const out = await signer.sign({ spec: { request, signerName, usages: nodeClientUsages } });
    if (out.kind !== 'issued') throw new Error(`in-process ${requestKey} signing: ${out.kind}${out.kind === 'failed' ? `: ${out.message}` : ''}`);
    return out.certificatePem;
  };
  // Proof that what is timed issues real certificates.
  const first = new X509Certificate(await sign(requests[0]));
  if (!first.verify(new X509Certificate(caPem).publicKey)) throw new Error(`in-process ${requestKey} signing: certificate not signed by the CA`);
  for (let i = 1; i < warmup; i++) await sign(requests[i]);
  const timed = requests.slice(warmup);
  const lat = new Float64Array(timed.length);
  const start = performance.now();
  for (let i = 0; i < timed.length; i++) {
    const t0 = performance.now();
    await sign(timed[i]);
    lat[i] = performance.now() - t0;
  }
  const seconds = (performance.now() - start) / 1000;
  const p = percentiles(lat);
  return {
    requestKey,
    signatures: timed.length,
    seconds: round(seconds, 3),
    perSec: round(timed.length / seconds, 1),
    latencyMs: { p50: round(p.p50, 3), p99: round(p.p99, 3), max: round(p.max, 3) },
  };
}

/** Requests for the in-process run: one key per type (key generation is not what is measured), a distinct subject each. */
async function signingRequests(kind: RequestKeyKind, count: number): Promise<string[]> {
  const keys = await generateRequestKey(kind);
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(Buffer.from((await nodeClientRequest(`bench-sign-${i}`, kind, keys)).pem).toString('base64'));
  return out;
}

/** The whole phase; the controller manager is started and stopped here. */
export async function runCsr(o: CsrOptions): Promise<CsrResult> {
  const { cluster, admin, csrs: N, concurrency: C, log } = o;
  const caPem = readFileSync(join(cluster.pkiDir, 'ca.crt'), 'utf8');
  const caKey = keyKind(createPrivateKey(readFileSync(join(cluster.pkiDir, 'ca.key'), 'utf8')));
  const requestKey: RequestKeyKind = 'ecdsa-p256';

  log(`csr: pre-generating ${warmupCsrs + 2 * N} node client CSRs (${requestKey}, one key each)`);
  const warm = await nodeRequests(0, warmupCsrs, requestKey);
  const seq = await nodeRequests(0, N, requestKey);
  const burst = await nodeRequests(0, N, requestKey);

  await createPolicy(admin, bootstrapPolicy());
  const bootstrap = new HttpsClient(cluster.apiserverUrl, await issueClientCredentials(cluster.pkiDir, bootstrapIdentity), C);
  log('csr: starting svc-controller-manager, waiting for it to hold the Lease');
  const cm = await startControllerManager(cluster).catch((e: unknown) => {
    bootstrap.agent.destroy();
    throw e;
  });
  const metrics = admin.withBase(cm.url, 1);
  let watch: CsrWatch | undefined;
  try {
    watch = await CsrWatch.open(admin);
    for (let i = 0; i < warm.length; i++) await createAndWait(watch, bootstrap, `${namePrefix}warmup-${i}`, warm[i]);

    log(`csr: sequential, ${N} CSRs one at a time`);
    const seqRuns: Timed[] = [];
    const seqStart = performance.now();
    for (let i = 0; i < N; i++) seqRuns.push(await createAndWait(watch, bootstrap, `${namePrefix}seq-${i}`, seq[i]));
    const sequential = sequentialResult(seqRuns, (performance.now() - seqStart) / 1000);

    log(`csr: burst, ${N} CSRs with ${C} creates in flight`);
    const w = watch;
    const names = burst.map((_, i) => `${namePrefix}burst-${i}`);
    const hist0 = await signingHistogram(metrics);
    const cpu0 = { cm: cpuSeconds(cm.pid), api: cpuSeconds(o.pids.apiserver), etcd: cpuSeconds(o.pids.etcd) };
    const issued = names.map((n) => w.expect(n));
    const sentAt = new Float64Array(N);
    let next = 0;
    let lastCreated = 0;
    const creator = async (): Promise<void> => {
      while (next < N) {
        const i = next++;
        sentAt[i] = performance.now();
        await bootstrap.expect('POST', csrApi, [201], csrObject(names[i], burst[i]));
        lastCreated = Math.max(lastCreated, performance.now());
      }
    };
    await Promise.all(Array.from({ length: Math.min(C, N) }, creator));
    const observed = await Promise.all(issued);
    const cpu = {
      controllerManager: round(cpuSeconds(cm.pid) - cpu0.cm, 2),
      apiserver: round(cpuSeconds(o.pids.apiserver) - cpu0.api, 2),
      etcd: round(cpuSeconds(o.pids.etcd) - cpu0.etcd, 2),
    };
    const hist1 = await signingHistogram(metrics);
    const first = Math.min(...sentAt);
    const last = Math.max(...observed.map((x) => x.issuedAt));
    const span = (last - first) / 1000;
    const perCert = (s: number): number => round((s * 1000) / N, 2);
    const signed = hist1.count - hist0.count;
    const burstResult: CsrBurstResult = {
      csrs: N,
      concurrency: C,
      createsSeconds: round((lastCreated - first) / 1000, 3),
      seconds: round(span, 3),
      issuedPerSec: round(N / span, 1),
      latencyMs: pct(observed.map((x, i) => x.issuedAt - sentAt[i])),
      cpuSeconds: cpu,
      cpuMsPerCertificate: { controllerManager: perCert(cpu.controllerManager), apiserver: perCert(cpu.apiserver), etcd: perCert(cpu.etcd) },
      controllerSign: { count: signed, meanMs: signed > 0 ? round(((hist1.sum - hist0.sum) * 1000) / signed, 3) : NaN },
    };
    const burstRuns: Timed[] = observed.map((x, i) => ({ name: names[i], request: burst[i], sentAt: sentAt[i], createdAt: NaN, observed: x }));
    const verification = verifyIssued([...seqRuns, ...burstRuns], caPem);

    watch.close();
    watch = undefined;
    await cm.stop();

    log(`csr: CsrSigner.sign in-process, ${o.signatures} each for ${requestKey} and rsa-2048 requests (CA ${caKey})`);
    const warmupSigns = Math.max(1, Math.min(50, Math.round(o.signatures / 10)));
    const ecdsaRequests = await signingRequests('ecdsa-p256', warmupSigns + o.signatures);
    const rsaRequests = await signingRequests('rsa-2048', warmupSigns + o.signatures);
    // A fresh signer, as the controller manager has, with the PKI's CA for the one signer timed.
    const signer = new CsrSigner({ ca: { certPem: caPem, keyPem: readFileSync(join(cluster.pkiDir, 'ca.key'), 'utf8') }, signerNames: [signerName] });
    const ecdsaP256 = await measureSigner(signer, 'ecdsa-p256', ecdsaRequests, warmupSigns, caPem);
    const rsa2048 = await measureSigner(signer, 'rsa-2048', rsaRequests, warmupSigns, caPem);

    return {
      signerName,
      caKey,
      requestKey,
      controllerManager: { identity: cm.identity, leaseHeldAfterMs: cm.leaseHeldAfterMs, warmupCsrs },
      sequential,
      burst: burstResult,
      inProcess: { ecdsaP256, rsa2048 },
      verification,
      note:
        'Latency is create sent → the certificate\'s watch event arriving in the bench (one watch on all CSRs, opened before the first create): ' +
        'it spans the create, the approver\'s SubjectAccessReview and /approval update, the signer\'s signature and /status update, and three watch deliveries ' +
        '(to the controller manager twice and to the bench). The controller manager runs its default controllers with leader election on. ' +
        `In-process signing: CsrSigner.sign (parse, policy, request-signature check, issue) in the bench process, one at a time, after ${warmupSigns} uncounted.`,
    };
  } finally {
    watch?.close();
    metrics.agent.destroy();
    bootstrap.agent.destroy();
    await cm.stop();
  }
}
