// An in-memory stand-in for the few API calls the CSR controllers make, for unit tests: CSRs
// with resourceVersions and the /status and /approval write rules (certificates are immutable
// once set), SubjectAccessReviews answered by the test, and a ListWatch whose watch streams
// carry every write — unless the test holds them back to make the informer stale.
import { apiVersionOf, certificatesigningrequests, conditionTypes, subjectaccessreviews } from '../../../api';
import type { ApiList, ApiObject, CertificateSigningRequest, Status, StatusReason, SubjectAccessReview } from '../../../api';
import {
  ClientApiError,
  type CreateCallOptions,
  type DeleteCallOptions,
  type GetOptions,
  type ListOptions,
  type ListWatch,
  type ResourceDescriptor,
  type WatchEvent,
  type WatchStream,
  type WriteCallOptions,
} from '../../../client';

const csrApiVersion = apiVersionOf(certificatesigningrequests);
const qualifiedCsrs = `${certificatesigningrequests.resource}.${certificatesigningrequests.group}`;

export function statusError(code: number, reason: StatusReason, message: string): ClientApiError {
  return new ClientApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

/** A watch the fake API feeds. */
class FakeWatch implements WatchStream<CertificateSigningRequest> {
  stopped = false;
  private queue: Array<WatchEvent<CertificateSigningRequest> | 'end'> = [];
  private waiter?: () => void;

  push(event: WatchEvent<CertificateSigningRequest>): void {
    this.enqueue(event);
  }
  stop(): void {
    this.stopped = true;
    this.enqueue('end');
  }
  private enqueue(x: WatchEvent<CertificateSigningRequest> | 'end'): void {
    this.queue.push(x);
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }
  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<CertificateSigningRequest>> {
    return {
      next: async () => {
        for (;;) {
          const x = this.queue.shift();
          if (x === 'end') return { done: true, value: undefined };
          if (x) return { done: false, value: x };
          await new Promise<void>((r) => (this.waiter = r));
        }
      },
    };
  }
}

export interface RecordedCall {
  verb: 'get' | 'create' | 'update' | 'delete';
  resource: string;
  name?: string;
  subresource?: string;
  body?: unknown;
  options?: unknown;
}

type ReviewAnswer = boolean | Error;

const approvalTypes: ReadonlySet<string> = new Set([conditionTypes.approved, conditionTypes.denied]);

export class FakeCsrApi implements ListWatch<CertificateSigningRequest> {
  readonly calls: RecordedCall[] = [];
  /** Answers SubjectAccessReviews (allowed?); default: not allowed. */
  reviewAnswer: (review: SubjectAccessReview) => ReviewAnswer = () => false;
  /** Errors thrown by the next calls of a verb, in order, before anything else happens. */
  readonly failNext: Partial<Record<RecordedCall['verb'], Error[]>> = {};
  /** While true, watch events are kept back (the informer goes stale); releaseEvents() sends them. */
  holdEvents = false;
  private held: WatchEvent<CertificateSigningRequest>[] = [];
  /** Every event sent, for watches that start from an older resourceVersion. */
  private readonly sent: WatchEvent<CertificateSigningRequest>[] = [];
  private readonly objects = new Map<string, CertificateSigningRequest>();
  private readonly watches: FakeWatch[] = [];
  private revision = 100;
  private uidSeq = 0;

  /** Stores a CSR as if a client created it (uid, resourceVersion, creationTimestamp filled when absent). */
  seed(csr: CertificateSigningRequest): CertificateSigningRequest {
    const name = csr.metadata?.name ?? '';
    const obj: CertificateSigningRequest = structuredClone({
      apiVersion: csrApiVersion,
      kind: certificatesigningrequests.kind,
      ...csr,
      metadata: { uid: `uid-${name}-${++this.uidSeq}`, creationTimestamp: '2025-01-01T00:00:00Z', ...csr.metadata, resourceVersion: String(++this.revision) },
    });
    const existed = this.objects.has(name);
    this.objects.set(name, obj);
    this.emit({ type: existed ? 'MODIFIED' : 'ADDED', object: structuredClone(obj) });
    return structuredClone(obj);
  }

  /** Another writer changes a CSR (bumps its resourceVersion). */
  modify(name: string, change: (csr: CertificateSigningRequest) => void): CertificateSigningRequest {
    const current = this.objects.get(name);
    if (!current) throw new Error(`no csr ${name}`);
    const next = structuredClone(current);
    change(next);
    next.metadata = { ...next.metadata, resourceVersion: String(++this.revision) };
    this.objects.set(name, next);
    this.emit({ type: 'MODIFIED', object: structuredClone(next) });
    return structuredClone(next);
  }

  /** The stored CSR (a copy), or undefined. */
  object(name: string): CertificateSigningRequest | undefined {
    const o = this.objects.get(name);
    return o && structuredClone(o);
  }

  names(): string[] {
    return [...this.objects.keys()].sort();
  }

  callsOf(verb: RecordedCall['verb'], subresource?: string): RecordedCall[] {
    return this.calls.filter((c) => c.verb === verb && (subresource === undefined || c.subresource === subresource));
  }

  releaseEvents(): void {
    this.holdEvents = false;
    for (const e of this.held.splice(0)) this.emit(e);
  }

  // ---- CsrApiClient ----

  async get<T extends ApiObject = ApiObject>(r: ResourceDescriptor, name: string, o: GetOptions = {}): Promise<T> {
    this.calls.push({ verb: 'get', resource: r.resource, name, subresource: o.subresource });
    this.injected('get');
    this.expectCsrs(r);
    const obj = this.objects.get(name);
    if (!obj) throw notFound(name);
    return structuredClone(obj) as T;
  }

  async create<T extends ApiObject = ApiObject>(r: ResourceDescriptor, body: T, o: CreateCallOptions = {}): Promise<T> {
    this.calls.push({ verb: 'create', resource: r.resource, body: structuredClone(body), subresource: o.subresource });
    this.injected('create');
    if (r.resource !== subjectaccessreviews.resource || r.group !== subjectaccessreviews.group) throw new Error(`fake API: create of ${r.resource} not supported`);
    const review = body as unknown as SubjectAccessReview;
    const answer = this.reviewAnswer(review);
    if (answer instanceof Error) throw answer;
    return { ...structuredClone(review), status: { allowed: answer } } as unknown as T;
  }

  async update<T extends ApiObject = ApiObject>(r: ResourceDescriptor, body: T, o: WriteCallOptions = {}): Promise<T> {
    const name = body.metadata?.name ?? '';
    this.calls.push({ verb: 'update', resource: r.resource, name, subresource: o.subresource, body: structuredClone(body) });
    this.injected('update');
    this.expectCsrs(r);
    // Controllers write only through subresources (DESIGN.md §2.7).
    if (o.subresource !== 'status' && o.subresource !== 'approval') throw new Error(`fake API: update without /status or /approval (got ${o.subresource ?? 'none'})`);
    const current = this.objects.get(name);
    if (!current) throw notFound(name);
    const rv = body.metadata?.resourceVersion;
    if (!rv) throw statusError(422, 'Invalid', 'metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
    if (rv !== current.metadata?.resourceVersion) {
      throw statusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedCsrs} "${name}": the object has been modified; please apply your changes to the latest version and try again`);
    }
    const incoming = (body as unknown as CertificateSigningRequest).status ?? {};
    const kept = current.status ?? {};
    const next = structuredClone(current);
    if (o.subresource === 'status') {
      if (kept.certificate && incoming.certificate !== kept.certificate) {
        throw statusError(422, 'Invalid', `${certificatesigningrequests.kind}.${certificatesigningrequests.group} "${name}" is invalid: status.certificate: Forbidden: updates may not modify existing certificate content`);
      }
      next.status = {
        ...structuredClone(incoming),
        // /status keeps the approval conditions (the strategy resets them).
        conditions: [...(kept.conditions ?? []).filter((c) => approvalTypes.has(c.type ?? '')), ...(incoming.conditions ?? []).filter((c) => !approvalTypes.has(c.type ?? ''))],
      };
    } else {
      next.status = {
        ...kept,
        // /approval changes only Approved/Denied.
        conditions: [...(incoming.conditions ?? []).filter((c) => approvalTypes.has(c.type ?? '')), ...(kept.conditions ?? []).filter((c) => !approvalTypes.has(c.type ?? ''))],
      };
    }
    next.metadata = { ...next.metadata, resourceVersion: String(++this.revision) };
    this.objects.set(name, next);
    this.emit({ type: 'MODIFIED', object: structuredClone(next) });
    return structuredClone(next) as unknown as T;
  }

  async delete<T extends ApiObject | Status = Status>(r: ResourceDescriptor, name: string, o: DeleteCallOptions = {}): Promise<T> {
    this.calls.push({ verb: 'delete', resource: r.resource, name, options: { preconditions: o.preconditions } });
    this.injected('delete');
    this.expectCsrs(r);
    const current = this.objects.get(name);
    if (!current) throw notFound(name);
    const uid = o.preconditions?.uid;
    if (uid && uid !== current.metadata?.uid) {
      throw statusError(409, 'Conflict', `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata?.uid}`);
    }
    this.objects.delete(name);
    const deleted = { ...structuredClone(current), metadata: { ...current.metadata, resourceVersion: String(++this.revision) } };
    this.emit({ type: 'DELETED', object: structuredClone(deleted) });
    return deleted as unknown as T;
  }

  // ---- ListWatch (for an Informer) ----

  async list(_opts: ListOptions): Promise<ApiList<CertificateSigningRequest>> {
    return {
      apiVersion: csrApiVersion,
      kind: certificatesigningrequests.listKind,
      metadata: { resourceVersion: String(this.revision) },
      items: [...this.objects.values()].map((o) => structuredClone(o)),
    };
  }

  /** Replays the events after the requested resourceVersion, as the API's watch cache does. */
  async watch(opts: ListOptions): Promise<WatchStream<CertificateSigningRequest>> {
    const w = new FakeWatch();
    const from = Number(opts.resourceVersion ?? 0);
    for (const e of this.sent) if (Number(e.object.metadata?.resourceVersion) > from) w.push(structuredClone(e));
    this.watches.push(w);
    return w;
  }

  /** RestClient.listWatch's shape, so the fake can stand in for a whole client. */
  listWatch<T extends ApiObject = ApiObject>(_r: ResourceDescriptor): ListWatch<T> {
    return this as unknown as ListWatch<T>;
  }

  private emit(event: WatchEvent<CertificateSigningRequest>): void {
    if (this.holdEvents) {
      this.held.push(event);
      return;
    }
    this.sent.push(event);
    for (const w of this.watches) if (!w.stopped) w.push(structuredClone(event));
  }

  private injected(verb: RecordedCall['verb']): void {
    const e = this.failNext[verb]?.shift();
    if (e) throw e;
  }

  private expectCsrs(r: ResourceDescriptor): void {
    if (r.resource !== certificatesigningrequests.resource || r.group !== certificatesigningrequests.group || r.version !== 'v1') {
      throw new Error(`fake API: unexpected resource ${r.group}/${r.version}/${r.resource}`);
    }
  }
}

function notFound(name: string): ClientApiError {
  return statusError(404, 'NotFound', `${qualifiedCsrs} "${name}" not found`);
}
