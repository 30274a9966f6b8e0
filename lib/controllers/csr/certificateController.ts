// What the CSR signer and approver share (upstream pkg/controller/certificates/
// certificate_controller.go): an informer feeds CSR names into a rate-limited work queue, N
// workers (the controllers' one worker loop, with its workqueue metrics) hand each CSR without a
// certificate to one handler; a failure requeues the name with backoff, a success forgets it.
import type { CertificateSigningRequest } from '../../api';
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  objectKey,
  realClock,
  type Clock,
  type Informer,
  type RateLimiter,
} from '../../client';
import { errorMessage, InstrumentedWorkQueue, noWorkQueueMetrics, runWorkers, type WorkQueueMetricsSink } from '../controller';
import { hasCertificate } from './conditions';
import { silentLog, type ControllerLog } from './log';

/** Handles one CSR (a private copy). Throwing requeues it with backoff. */
export type CsrHandler = (csr: CertificateSigningRequest, signal: AbortSignal) => Promise<void>;

/**
 * A failure that is expected while waiting on something else (a review not yet allowed): retried
 * like any error, but logged at debug level because it is usually user error and would be spammy.
 */
export class IgnorableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IgnorableError';
  }
}

/** Upstream's queue for certificate controllers: per-item 200 ms doubling to 1000 s, overall 10 qps burst 100. */
export function certificateRateLimiter(clock: Pick<Clock, 'now'>): RateLimiter<string> {
  return new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter<string>(200, 1_000_000), new BucketRateLimiter<string>(10, 100, clock));
}

/** kube-controller-manager runs the signer and the approver with 5 workers each. */
export const defaultCertificateWorkers = 5;

export interface CertificateControllerOptions {
  /** For logs: csrsigning, csrapproving. */
  name: string;
  informer: Informer<CertificateSigningRequest>;
  handler: CsrHandler;
  workers?: number;
  clock?: Clock;
  rateLimiter?: RateLimiter<string>;
  log?: ControllerLog;
  /** Receives the queue's workqueue_* metrics, under the controller's name. */
  queueMetrics?: WorkQueueMetricsSink;
  /** The controller created the informer: stop it when run() ends. A shared one is only started. */
  ownsInformer?: boolean;
}

export class CertificateController {
  readonly name: string;
  readonly queue: InstrumentedWorkQueue<string>;
  private readonly informer: Informer<CertificateSigningRequest>;
  private readonly handler: CsrHandler;
  private readonly workers: number;
  private readonly log: ControllerLog;
  private readonly ownsInformer: boolean;

  constructor(opts: CertificateControllerOptions) {
    const clock = opts.clock ?? realClock;
    this.name = opts.name;
    this.informer = opts.informer;
    this.handler = opts.handler;
    this.workers = opts.workers ?? defaultCertificateWorkers;
    if (!(this.workers >= 1)) throw new Error(`${opts.name}: workers must be at least 1, got ${this.workers}`);
    this.log = opts.log ?? silentLog;
    this.ownsInformer = opts.ownsInformer ?? false;
    this.queue = new InstrumentedWorkQueue<string>(opts.name, opts.queueMetrics ?? noWorkQueueMetrics, {
      clock,
      rateLimiter: opts.rateLimiter ?? certificateRateLimiter(clock),
    });
    const enqueue = (csr: CertificateSigningRequest): void => this.queue.add(objectKey(csr));
    // Deletes are queued too: the sync then finds nothing and the key's backoff is forgotten.
    this.informer.addEventHandler({ onAdd: enqueue, onUpdate: (_old, csr) => enqueue(csr), onDelete: enqueue });
  }

  /** Runs until `signal` aborts; resolves once every worker has finished its current CSR. */
  async run(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    const onAbort = (): void => this.queue.shutDown();
    signal.addEventListener('abort', onAbort, { once: true });
    this.informer.start();
    try {
      if (!(await this.informer.waitForSync(signal))) return;
      this.log.info('Starting certificate controller', { name: this.name });
      await runWorkers(this.queue, this.workers, (key) => this.process(key, signal), signal);
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.queue.shutDown();
      if (this.ownsInformer) await this.informer.stop();
      this.log.info('Shutting down certificate controller', { name: this.name });
    }
  }

  /** Syncs one name taken off the queue: a success forgets its backoff, a failure requeues it. */
  private async process(key: string, signal: AbortSignal): Promise<void> {
    try {
      await this.sync(key, signal);
      this.queue.forget(key);
    } catch (e) {
      this.queue.addRateLimited(key);
      const message = errorMessage(e);
      if (e instanceof IgnorableError) this.log.debug('sync certificate request failed', { name: this.name, csr: key, err: message });
      else this.log.error(`sync ${key} failed with: ${message}`, { name: this.name, csr: key });
    }
  }

  private async sync(key: string, signal: AbortSignal): Promise<void> {
    const csr = this.informer.get(key);
    if (!csr) {
      this.log.debug('csr has been deleted', { name: this.name, csr: key });
      return;
    }
    // Nothing is left to do for a CSR that has its certificate.
    if (hasCertificate(csr)) return;
    // The informer's object is shared: handlers get their own copy to modify.
    await this.handler(structuredClone(csr), signal);
  }
}
