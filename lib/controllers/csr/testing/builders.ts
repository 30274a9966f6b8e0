// CSR objects and helpers for the controller tests.
import { conditionTypes, signerNames, type CertificateSigningRequest, type CertificateSigningRequestCondition } from '../../../api';
import { flushPromises } from '../../../client';

export interface CsrFields {
  name?: string;
  signerName?: string;
  /** base64 of the PEM request, as the API carries it. */
  request?: string;
  usages?: string[];
  username?: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
  expirationSeconds?: number;
  conditions?: CertificateSigningRequestCondition[];
  /** base64 of the PEM certificate. */
  certificate?: string;
  creationTimestamp?: string;
}

export const clientUsages = ['digital signature', 'key encipherment', 'client auth'];

export function csrObject(f: CsrFields = {}): CertificateSigningRequest {
  const status: NonNullable<CertificateSigningRequest['status']> = {};
  if (f.conditions) status.conditions = f.conditions;
  if (f.certificate) status.certificate = f.certificate;
  return {
    metadata: { name: f.name ?? 'csr-1', ...(f.creationTimestamp ? { creationTimestamp: f.creationTimestamp } : {}) },
    spec: {
      request: f.request ?? '',
      signerName: f.signerName ?? signerNames.apiserverClientSvclet,
      usages: f.usages ?? clientUsages,
      ...(f.username !== undefined ? { username: f.username } : {}),
      ...(f.groups ? { groups: f.groups } : {}),
      ...(f.uid ? { uid: f.uid } : {}),
      ...(f.extra ? { extra: f.extra } : {}),
      ...(f.expirationSeconds !== undefined ? { expirationSeconds: f.expirationSeconds } : {}),
    },
    status,
  };
}

const condition = (type: string) => (lastUpdateTime?: string, status = 'True'): CertificateSigningRequestCondition => ({
  type,
  status,
  reason: 'Test',
  message: `${type.toLowerCase()} by a test`,
  ...(lastUpdateTime ? { lastUpdateTime } : {}),
});
export const approved = condition(conditionTypes.approved);
export const denied = condition(conditionTypes.denied);
export const failed = condition(conditionTypes.failed);

/** Polls `cond` between event-loop turns until it holds; fails after `timeoutMs` of real time. */
export async function waitFor(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await flushPromises();
  }
}
