// csrcleaner: deletes CSRs nobody needs any more, so automated requests and approvals do not pile
// up (certificates.md §6; upstream pkg/controller/certificates/cleaner/cleaner.go). Every
// polling interval it walks the informer's CSRs and deletes those past their deadline.
import { X509Certificate } from 'node:crypto';
import { conditionTypes, type CertificateSigningRequest } from '../../api';
import { isNotFound, realClock, sleep, type Clock, type Informer } from '../../client';
import { hasCertificate, parseApiTime } from './conditions';
import { csrResource, type CsrApiClient } from './csrClient';
import { silentLog, type ControllerLog } from './log';

const hour = 3_600_000;

/** Deadlines in milliseconds. Failed CSRs use deniedExpiration, as upstream. */
export interface CsrCleanerIntervals {
  /** Between two passes over every CSR. */
  pollingInterval: number;
  /** Approved and issued: since the Approved condition's lastUpdateTime. */
  approvedExpiration: number;
  /** Denied or Failed: since that condition's lastUpdateTime. */
  deniedExpiration: number;
  /** No conditions at all: since creationTimestamp. */
  pendingExpiration: number;
}

export const csrCleanerDefaults: Readonly<CsrCleanerIntervals> = {
  pollingInterval: hour,
  approvedExpiration: hour,
  deniedExpiration: hour,
  pendingExpiration: 24 * hour,
};

export type CleanReason = 'issued-past-deadline' | 'denied-past-deadline' | 'failed-past-deadline' | 'pending-past-deadline' | 'issued-expired';

/** `t` is set and more than `ms` before `now` (isOlderThan). */
function olderThan(t: string | null | undefined, ms: number, now: number): boolean {
  const at = parseApiTime(t);
  return at !== undefined && now - at > ms;
}

/**
 * NotAfter of the certificate in the first PEM block of status.certificate; undefined when that
 * block is missing or not a readable certificate (such a CSR is then never "expired").
 */
export function issuedNotAfter(csr: CertificateSigningRequest): number | undefined {
  const encoded = csr.status?.certificate;
  if (!encoded) return undefined;
  const text = Buffer.from(encoded, 'base64').toString('latin1');
  // Go's pem.Decode: the first block, whatever follows it.
  const first = /-----BEGIN ([^-\r\n]+)-----\r?\n[\s\S]*?-----END \1-----/.exec(text);
  if (!first || first[1] !== 'CERTIFICATE') return undefined;
  try {
    const notAfter = Date.parse(new X509Certificate(first[0]).validTo);
    return Number.isFinite(notAfter) ? notAfter : undefined;
  } catch {
    return undefined;
  }
}

/** Why `csr` is to be deleted at `now`, or undefined to keep it. Checks run in upstream's order. */
export function cleanReason(csr: CertificateSigningRequest, now: number, limits: CsrCleanerIntervals = csrCleanerDefaults): CleanReason | undefined {
  const conditions = csr.status?.conditions ?? [];
  const issued = hasCertificate(csr);
  const approved = conditions.filter((c) => c.type === conditionTypes.approved);
  if (issued && approved.some((c) => olderThan(c.lastUpdateTime, limits.approvedExpiration, now))) return 'issued-past-deadline';
  if (conditions.some((c) => c.type === conditionTypes.denied && olderThan(c.lastUpdateTime, limits.deniedExpiration, now))) return 'denied-past-deadline';
  if (conditions.some((c) => c.type === conditionTypes.failed && olderThan(c.lastUpdateTime, limits.deniedExpiration, now))) return 'failed-past-deadline';
  if (conditions.length === 0 && olderThan(csr.metadata?.creationTimestamp, limits.pendingExpiration, now)) return 'pending-past-deadline';
  if (issued && approved.length) {
    const notAfter = issuedNotAfter(csr);
    if (notAfter !== undefined && now > notAfter) return 'issued-expired';
  }
  return undefined;
}

export interface CsrCleanerOptions extends Partial<CsrCleanerIntervals> {
  client: Pick<CsrApiClient, 'delete'>;
  informer: Informer<CertificateSigningRequest>;
  clock?: Clock;
  log?: ControllerLog;
  /** The informer was made for this controller: stop it when run() ends. */
  ownsInformer?: boolean;
}

export interface CleanedCsr {
  name: string;
  reason: CleanReason;
}

export class CsrCleanerController {
  readonly name = 'csrcleaner';
  readonly intervals: Readonly<CsrCleanerIntervals>;
  private readonly client: Pick<CsrApiClient, 'delete'>;
  private readonly informer: Informer<CertificateSigningRequest>;
  private readonly clock: Clock;
  private readonly log: ControllerLog;
  private readonly ownsInformer: boolean;

  constructor(opts: CsrCleanerOptions) {
    this.intervals = {
      pollingInterval: opts.pollingInterval ?? csrCleanerDefaults.pollingInterval,
      approvedExpiration: opts.approvedExpiration ?? csrCleanerDefaults.approvedExpiration,
      deniedExpiration: opts.deniedExpiration ?? csrCleanerDefaults.deniedExpiration,
      pendingExpiration: opts.pendingExpiration ?? csrCleanerDefaults.pendingExpiration,
    };
    for (const [k, v] of Object.entries(this.intervals)) if (!(v > 0)) throw new Error(`csrcleaner: ${k} must be positive, got ${v}`);
    this.client = opts.client;
    this.informer = opts.informer;
    this.clock = opts.clock ?? realClock;
    this.log = opts.log ?? silentLog;
    this.ownsInformer = opts.ownsInformer ?? false;
  }

  /** A pass once the informer has synced, then one every pollingInterval after the last ended, until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    this.informer.start();
    try {
      if (!(await this.informer.waitForSync(signal))) return;
      this.log.info('Starting CSR cleaner controller');
      do {
        await this.cleanOnce(signal);
      } while (await sleep(this.clock, this.intervals.pollingInterval, signal));
    } finally {
      if (this.ownsInformer) await this.informer.stop();
      this.log.info('Shutting down CSR cleaner controller');
    }
  }

  /** One pass: deletes every CSR past its deadline; a failed delete is logged and the pass goes on. */
  async cleanOnce(signal?: AbortSignal): Promise<CleanedCsr[]> {
    const cleaned: CleanedCsr[] = [];
    for (const csr of this.informer.list()) {
      if (signal?.aborted) break;
      const name = csr.metadata?.name ?? '';
      const reason = cleanReason(csr, this.clock.now(), this.intervals);
      if (!reason) continue;
      this.log.info('Cleaning CSR', { csr: name, reason });
      try {
        const uid = csr.metadata?.uid;
        // The uid guards against deleting a CSR recreated under the same name since the informer saw it.
        await this.client.delete(csrResource, name, { signal, ...(uid ? { preconditions: { uid } } : {}) });
        cleaned.push({ name, reason });
      } catch (e) {
        if (isNotFound(e)) continue;
        this.log.error('Error while attempting to clean CSR', { csr: name, err: `unable to delete CSR ${JSON.stringify(name)}: ${e instanceof Error ? e.message : String(e)}` });
      }
    }
    return cleaned;
  }
}
