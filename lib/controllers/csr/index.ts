// Public surface of the CSR controllers: constructors with one shape, { name, run(signal) }, so
// cmd/controller-manager can start them by name, plus the pieces for wiring and tests.
import type { CertificateSigningRequest } from '../../api';
import type { Clock, Informer, RateLimiter } from '../../client';
import { CsrApprovingController } from './csrapproving';
import { CsrCleanerController, type CsrCleanerIntervals } from './csrcleaner';
import { newCsrInformer, type CsrApiClient, type CsrListWatchClient } from './csrClient';
import { CsrSigningController, type CertificateIssuer, type CsrSigningMetrics } from './csrsigning';
import type { WorkQueueMetricsSink } from '../controller';
import type { ControllerLog } from './log';

export { CertificateController, IgnorableError, certificateRateLimiter, defaultCertificateWorkers } from './certificateController';
export type { CertificateControllerOptions, CsrHandler } from './certificateController';
export { CsrSigningController } from './csrsigning';
export type { CertificateIssuer, CsrSigningMetrics, CsrSigningOptions, SigningDecision } from './csrsigning';
export { CsrApprovingController, autoApprovedReason, csrRecognizers } from './csrapproving';
export type { ApprovalDecision, ApprovalSubresource, CsrApprovingOptions, CsrRecognizer } from './csrapproving';
export { CsrCleanerController, cleanReason, csrCleanerDefaults, issuedNotAfter } from './csrcleaner';
export type { CleanedCsr, CleanReason, CsrCleanerIntervals, CsrCleanerOptions } from './csrcleaner';
export { csrResource, newCsrInformer } from './csrClient';
export type { CsrApiClient, CsrInformerOptions, CsrListWatchClient } from './csrClient';
export { approvalState, formatApiTime, hasCertificate, hasTrueCondition, isApproved, parseApiTime, withCondition } from './conditions';
export { silentLog } from './log';
export type { ControllerLog, LogFn } from './log';

export const csrControllerNames = ['csrsigning', 'csrapproving', 'csrcleaner'] as const;
export type CsrControllerName = (typeof csrControllerNames)[number];

/** What cmd/controller-manager starts: runs until the signal aborts, resolves once stopped. */
export interface CsrController {
  readonly name: CsrControllerName;
  run(signal: AbortSignal): Promise<void>;
}

export interface CsrControllerDeps {
  client: CsrApiClient & CsrListWatchClient;
  /** A CSR informer shared by several controllers (its owner stops it); without one each controller makes its own. */
  informer?: Informer<CertificateSigningRequest>;
  clock?: Clock;
  log?: ControllerLog;
}

export interface CsrSigningDeps extends CsrControllerDeps {
  signer: CertificateIssuer;
  workers?: number;
  metrics?: Partial<CsrSigningMetrics>;
  queueMetrics?: WorkQueueMetricsSink;
  rateLimiter?: RateLimiter<string>;
}

export interface CsrApprovingDeps extends CsrControllerDeps {
  workers?: number;
  queueMetrics?: WorkQueueMetricsSink;
  rateLimiter?: RateLimiter<string>;
}

export type CsrCleanerDeps = CsrControllerDeps & Partial<CsrCleanerIntervals>;

/** Everything any of the three needs; `signer` only for csrsigning. */
export type CsrControllersDeps = CsrControllerDeps & Partial<Pick<CsrSigningDeps, 'signer' | 'metrics' | 'queueMetrics'>> & Partial<CsrCleanerIntervals> & { workers?: number };

function informerFor(deps: CsrControllerDeps): { informer: Informer<CertificateSigningRequest>; ownsInformer: boolean } {
  if (deps.informer) return { informer: deps.informer, ownsInformer: false };
  const log = deps.log;
  const informer = newCsrInformer(deps.client, {
    clock: deps.clock,
    onError: log ? (e) => log.error('CSR informer error', { err: e instanceof Error ? e.message : String(e) }) : undefined,
  });
  return { informer, ownsInformer: true };
}

export function newCsrSigningController(deps: CsrSigningDeps): CsrController {
  return new CsrSigningController({ ...deps, ...informerFor(deps) });
}

export function newCsrApprovingController(deps: CsrApprovingDeps): CsrController {
  return new CsrApprovingController({ ...deps, ...informerFor(deps) });
}

export function newCsrCleanerController(deps: CsrCleanerDeps): CsrController {
  return new CsrCleanerController({ ...deps, ...informerFor(deps) });
}

/** One of the three by name; csrsigning needs `deps.signer`. */
export function newCsrController(name: CsrControllerName, deps: CsrControllersDeps): CsrController {
  switch (name) {
    case 'csrsigning': {
      const { signer } = deps;
      if (!signer) throw new Error('csrsigning needs a signer (the cluster signing CA)');
      return newCsrSigningController({ ...deps, signer });
    }
    case 'csrapproving':
      return newCsrApprovingController(deps);
    case 'csrcleaner':
      return newCsrCleanerController(deps);
  }
}
