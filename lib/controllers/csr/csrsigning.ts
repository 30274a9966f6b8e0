// csrsigning: issues certificates for approved CSRs whose signer this process runs
// (certificates.md §3; upstream pkg/controller/certificates/signer/signer.go). The decision to
// sign and the write-back live here; the checks and the issuance are lib/signing's CsrSigner.
import { conditionTypes, type CertificateSigningRequest } from '../../api';
import { isConflict, isNotFound, realClock, type Clock, type Informer, type RateLimiter } from '../../client';
import type { SignableRequest, SignOutcome } from '../../signing/signer';
import type { WorkQueueMetricsSink } from '../controller';
import { CertificateController } from './certificateController';
import { formatApiTime, hasCertificate, hasTrueCondition, isApproved, withCondition } from './conditions';
import { csrResource, type CsrApiClient } from './csrClient';
import { silentLog, type ControllerLog } from './log';

/** What the controller needs of a signer; lib/signing's CsrSigner is one. */
export interface CertificateIssuer {
  handles(signerName: string): boolean;
  /** Throws (SigningError) for failures that may pass on a retry. */
  sign(csr: SignableRequest): Promise<SignOutcome>;
}

/** Hooks for signature counters (cmd wires them to prom-client). */
export interface CsrSigningMetrics {
  /** A certificate was written; `seconds` is how long signing took. */
  onIssued(signerName: string, seconds: number): void;
  /** A Failed condition was written. */
  onFailed(signerName: string, reason: string): void;
}

export interface CsrSigningOptions {
  client: CsrApiClient;
  informer: Informer<CertificateSigningRequest>;
  signer: CertificateIssuer;
  clock?: Clock;
  workers?: number;
  metrics?: Partial<CsrSigningMetrics>;
  log?: ControllerLog;
  rateLimiter?: RateLimiter<string>;
  /** Receives the queue's workqueue_* metrics. */
  queueMetrics?: WorkQueueMetricsSink;
  /** The informer was made for this controller: stop it when run() ends. */
  ownsInformer?: boolean;
}

/** What one sync did. */
export type SigningDecision =
  /** Not approved, Failed, already issued, or a signer this process does not run. */
  | 'skipped'
  | 'issued'
  | 'failed'
  /** The write found a newer object that already had a certificate, or was no longer to be signed. */
  | 'superseded';

const failedReason = 'SignerValidationFailure';

export class CsrSigningController {
  readonly name = 'csrsigning';
  private readonly controller: CertificateController;
  private readonly client: CsrApiClient;
  private readonly signer: CertificateIssuer;
  private readonly clock: Clock;
  private readonly metrics: Partial<CsrSigningMetrics>;
  private readonly log: ControllerLog;

  constructor(opts: CsrSigningOptions) {
    this.client = opts.client;
    this.signer = opts.signer;
    this.clock = opts.clock ?? realClock;
    this.metrics = opts.metrics ?? {};
    this.log = opts.log ?? silentLog;
    // The queue, workers and informer handling are shared; only the decision is this controller's.
    this.controller = new CertificateController({ ...opts, name: this.name, handler: async (csr, signal) => void (await this.handle(csr, signal)) });
  }

  run(signal: AbortSignal): Promise<void> {
    return this.controller.run(signal);
  }

  /** Signs one CSR if it is due; throws to be retried with backoff. */
  async handle(csr: CertificateSigningRequest, signal?: AbortSignal): Promise<SigningDecision> {
    if (!isApproved(csr) || hasTrueCondition(csr, conditionTypes.failed) || hasCertificate(csr)) return 'skipped';
    const signerName = csr.spec?.signerName ?? '';
    if (!this.signer.handles(signerName)) return 'skipped';
    const name = csr.metadata?.name ?? '';

    const started = this.clock.now();
    let outcome: SignOutcome;
    try {
      outcome = await this.signer.sign({
        metadata: { name },
        spec: { request: csr.spec?.request ?? '', signerName, usages: csr.spec?.usages, expirationSeconds: csr.spec?.expirationSeconds },
      });
    } catch (e) {
      throw new Error(`error auto signing csr: ${messageOf(e)}`, { cause: e });
    }
    const seconds = (this.clock.now() - started) / 1000;

    switch (outcome.kind) {
      case 'ignored':
        return 'skipped';
      case 'failed': {
        const failed = withCondition(csr, {
          type: conditionTypes.failed,
          status: 'True',
          reason: failedReason,
          message: outcome.message,
          lastUpdateTime: formatApiTime(this.clock.now()),
        });
        try {
          await this.client.update(csrResource, failed, { subresource: 'status', signal });
        } catch (e) {
          throw new Error(`error adding failure condition for csr: ${messageOf(e)}`, { cause: e });
        }
        this.log.info('Signer validation failed', { csr: name, signerName, message: outcome.message });
        this.metrics.onFailed?.(signerName, failedReason);
        return 'failed';
      }
      case 'issued': {
        const certificate = Buffer.from(outcome.certificatePem).toString('base64');
        const written = await this.writeCertificate(csr, certificate, signal);
        if (!written) return 'superseded';
        this.log.info('Issued certificate', { csr: name, signerName });
        this.metrics.onIssued?.(signerName, seconds);
        return 'issued';
      }
    }
  }

  /**
   * PUT /status with the informer copy's resourceVersion; false when nothing was written. On a conflict the copy was stale: the
   * current object decides. A certificate already there (ours, written before the informer saw
   * it) or a CSR no longer due ends the work; otherwise the certificate just issued is written
   * onto the current object once — the request is immutable, so it still matches — and never
   * issued again. A second conflict is retried through the queue.
   */
  private async writeCertificate(csr: CertificateSigningRequest, certificate: string, signal?: AbortSignal): Promise<boolean> {
    const withCertificate = (c: CertificateSigningRequest): CertificateSigningRequest => ({ ...c, status: { ...c.status, certificate } });
    try {
      await this.client.update(csrResource, withCertificate(csr), { subresource: 'status', signal });
      return true;
    } catch (e) {
      // Deleted meanwhile: nothing left to sign for.
      if (isNotFound(e)) return false;
      if (!isConflict(e)) throw new Error(`error updating signature for csr: ${messageOf(e)}`, { cause: e });
    }
    const name = csr.metadata?.name ?? '';
    let current: CertificateSigningRequest;
    try {
      current = await this.client.get<CertificateSigningRequest>(csrResource, name, { signal });
    } catch (e) {
      if (isNotFound(e)) return false;
      throw new Error(`error reading csr after a conflict: ${messageOf(e)}`, { cause: e });
    }
    const sameObject = current.metadata?.uid === csr.metadata?.uid;
    if (!sameObject || hasCertificate(current) || !isApproved(current) || hasTrueCondition(current, conditionTypes.failed)) return false;
    try {
      await this.client.update(csrResource, withCertificate(current), { subresource: 'status', signal });
      return true;
    } catch (e) {
      throw new Error(`error updating signature for csr: ${messageOf(e)}`, { cause: e });
    }
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
