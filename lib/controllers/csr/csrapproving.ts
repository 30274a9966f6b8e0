// csrapproving: approves svclet client certificate requests after asking the API, through a
// SubjectAccessReview in the requester's name, whether they may (certificates.md §4; upstream
// pkg/controller/certificates/approver/sarapprove.go). It never denies and never approves other signers.
import {
  apiVersionOf,
  conditionTypes,
  groups,
  nodeAgentName,
  signerNames,
  subjectaccessreviews,
  type CertificateSigningRequest,
  type SubjectAccessReview,
} from '../../api';
import type { Clock, Informer, RateLimiter } from '../../client';
import { isSvcletClientShape, parseCertificateRequest, type ParsedCertificateRequest } from '../../signing/signer';
import type { WorkQueueMetricsSink } from '../controller';
import { CertificateController, IgnorableError } from './certificateController';
import { approvalState, hasCertificate, withCondition } from './conditions';
import { csrResource, type CsrApiClient } from './csrClient';
import type { ControllerLog } from './log';

export type ApprovalSubresource = 'selfnodeclient' | 'nodeclient';

export interface CsrRecognizer {
  /** The subresource of `create certificatesigningrequests` the requester must be allowed. */
  subresource: ApprovalSubresource;
  /** The Approved condition's message. */
  message: string;
  recognize(csr: CertificateSigningRequest, request: ParsedCertificateRequest): boolean;
}

function isNodeClient(csr: CertificateSigningRequest, request: ParsedCertificateRequest): boolean {
  return csr.spec?.signerName === signerNames.apiserverClientSvclet && isSvcletClientShape(request, csr.spec?.usages ?? []);
}

/** Tried in this order: a node renewing its own certificate first, then any node client certificate. */
export const csrRecognizers: readonly CsrRecognizer[] = [
  {
    subresource: 'selfnodeclient',
    message: `Auto approving self ${nodeAgentName} client certificate after SubjectAccessReview.`,
    recognize: (csr, request) => csr.spec?.username === request.commonName && isNodeClient(csr, request),
  },
  {
    subresource: 'nodeclient',
    message: `Auto approving ${nodeAgentName} client certificate after SubjectAccessReview.`,
    recognize: isNodeClient,
  },
];

export const autoApprovedReason = 'AutoApproved';

export interface CsrApprovingOptions {
  client: CsrApiClient;
  informer: Informer<CertificateSigningRequest>;
  clock?: Clock;
  workers?: number;
  log?: ControllerLog;
  rateLimiter?: RateLimiter<string>;
  /** Receives the queue's workqueue_* metrics. */
  queueMetrics?: WorkQueueMetricsSink;
  /** The informer was made for this controller: stop it when run() ends. */
  ownsInformer?: boolean;
}

/** What one sync did. */
export type ApprovalDecision =
  /** Issued, already approved or denied, or no recognizer matched. */
  | { kind: 'skipped' }
  | { kind: 'approved'; subresource: ApprovalSubresource; tried: ApprovalSubresource[] };

export class CsrApprovingController {
  readonly name = 'csrapproving';
  private readonly controller: CertificateController;
  private readonly client: CsrApiClient;

  constructor(opts: CsrApprovingOptions) {
    this.client = opts.client;
    // The queue, workers and informer handling are shared; only the decision is this controller's.
    this.controller = new CertificateController({ ...opts, name: this.name, handler: async (csr, signal) => void (await this.handle(csr, signal)) });
  }

  run(signal: AbortSignal): Promise<void> {
    return this.controller.run(signal);
  }

  /**
   * Approves one CSR when a recognizer matches and its review allows it. Throws to be retried:
   * IgnorableError when recognised but no review allowed it (the requester may get the
   * permission later), a plain Error for an unreadable request or a failed API call.
   */
  async handle(csr: CertificateSigningRequest, signal?: AbortSignal): Promise<ApprovalDecision> {
    if (hasCertificate(csr)) return { kind: 'skipped' };
    const { approved, denied } = approvalState(csr);
    if (approved || denied) return { kind: 'skipped' };
    const name = csr.metadata?.name ?? '';
    let request: ParsedCertificateRequest;
    try {
      request = parseCertificateRequest(Buffer.from(csr.spec?.request ?? '', 'base64'));
    } catch (e) {
      throw new Error(`unable to parse csr ${JSON.stringify(name)}: ${messageOf(e)}`, { cause: e });
    }

    const tried: ApprovalSubresource[] = [];
    for (const r of csrRecognizers) {
      if (!r.recognize(csr, request)) continue;
      tried.push(r.subresource);
      if (!(await this.authorize(csr, r.subresource, signal))) continue;
      const updated = withCondition(csr, { type: conditionTypes.approved, status: 'True', reason: autoApprovedReason, message: r.message });
      try {
        await this.client.update(csrResource, updated, { subresource: 'approval', signal });
      } catch (e) {
        throw new Error(`error updating approval for csr: ${messageOf(e)}`, { cause: e });
      }
      return { kind: 'approved', subresource: r.subresource, tried };
    }
    if (tried.length) throw new IgnorableError(`recognized csr ${JSON.stringify(name)} as [${tried.join(' ')}] but subject access review was not approved`);
    return { kind: 'skipped' };
  }

  /** Asks whether the CSR's requester may `create certificatesigningrequests/<subresource>`. */
  private async authorize(csr: CertificateSigningRequest, subresource: ApprovalSubresource, signal?: AbortSignal): Promise<boolean> {
    const spec = csr.spec ?? {};
    const review: SubjectAccessReview = {
      apiVersion: apiVersionOf(subjectaccessreviews),
      kind: subjectaccessreviews.kind,
      metadata: {},
      spec: {
        user: spec.username,
        uid: spec.uid,
        groups: spec.groups,
        extra: spec.extra,
        resourceAttributes: { group: groups.certificates, resource: csrResource.resource, verb: 'create', subresource },
      },
    };
    const answer = await this.client.create<SubjectAccessReview>(subjectaccessreviews, review, { signal });
    return answer?.status?.allowed === true;
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
