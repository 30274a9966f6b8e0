// CertificateSigningRequests as a client drives them over HTTPS: create, approve or deny through
// /approval, wait for the signer's certificate or Failed condition, and read the issued certificate.
import { X509Certificate } from 'node:crypto';
import { type ApiServerProcess, eventually, type RequestOptions } from './apiserver';
import { b64 } from './openssl';

export const csrPath = '/apis/certificates.svc.io/v1/certificatesigningrequests';

export const signers = {
  client: 'svc.io/svc-apiserver-client',
  svcletClient: 'svc.io/svc-apiserver-client-svclet',
  svcletServing: 'svc.io/svclet-serving',
} as const;

export const clientUsages = ['digital signature', 'key encipherment', 'client auth'];
export const servingUsages = ['digital signature', 'key encipherment', 'server auth'];

export interface CsrCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface Csr {
  metadata: { name: string; resourceVersion: string; uid: string; creationTimestamp?: string };
  spec: { username?: string; groups?: string[]; request: string; signerName: string; usages: string[]; expirationSeconds?: number };
  status?: { conditions?: CsrCondition[]; certificate?: string };
}

export interface CsrSpec {
  /** The PKCS#10 PEM. */
  request: string;
  signerName: string;
  usages?: string[];
  expirationSeconds?: number;
}

export function csrManifest(name: string, spec: CsrSpec): Record<string, unknown> {
  return {
    apiVersion: 'certificates.svc.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: b64(spec.request),
      signerName: spec.signerName,
      usages: spec.usages ?? clientUsages,
      ...(spec.expirationSeconds === undefined ? {} : { expirationSeconds: spec.expirationSeconds }),
    },
  };
}

/** POSTs the CSR (as the admin unless `as` says otherwise); throws unless 201. */
export async function createCsr(server: ApiServerProcess, name: string, spec: CsrSpec, as: RequestOptions = {}): Promise<Csr> {
  const r = await server.request('POST', csrPath, { ...as, body: csrManifest(name, spec) });
  if (r.status !== 201) throw new Error(`create CSR ${name}: ${r.status} ${r.body}`);
  return r.json<Csr>();
}

export async function getCsr(server: ApiServerProcess, name: string): Promise<Csr> {
  const r = await server.request('GET', `${csrPath}/${name}`);
  if (r.status !== 200) throw new Error(`get CSR ${name}: ${r.status} ${r.body}`);
  return r.json<Csr>();
}

/**
 * Adds an Approved or Denied condition through PUT …/approval, as `svcctl certificate approve`
 * would (read, append, write; a 409 from a concurrent controller write is retried).
 */
export async function decide(server: ApiServerProcess, name: string, type: 'Approved' | 'Denied', reason = type === 'Approved' ? 'E2eApprove' : 'E2eDeny'): Promise<Csr> {
  for (let attempt = 0; ; attempt++) {
    const cur = await getCsr(server, name);
    const status = cur.status ?? {};
    status.conditions = [...(status.conditions ?? []), { type, status: 'True', reason, message: `${type} by the e2e test.` }];
    const r = await server.request('PUT', `${csrPath}/${name}/approval`, { body: { ...cur, status } });
    if (r.status === 200) return r.json<Csr>();
    if (r.status !== 409 || attempt >= 5) throw new Error(`${type} CSR ${name}: ${r.status} ${r.body}`);
  }
}

export const approve = (server: ApiServerProcess, name: string): Promise<Csr> => decide(server, name, 'Approved');
export const deny = (server: ApiServerProcess, name: string): Promise<Csr> => decide(server, name, 'Denied');

export function condition(csr: Csr, type: string): CsrCondition | undefined {
  return csr.status?.conditions?.find((c) => c.type === type);
}

/** The PEM in status.certificate, or undefined. */
export function certificatePem(csr: Csr): string | undefined {
  const c = csr.status?.certificate;
  return c ? Buffer.from(c, 'base64').toString('utf8') : undefined;
}

/** Polls until the CSR carries a certificate; returns the CSR as then read. */
export async function awaitIssued(server: ApiServerProcess, name: string, timeoutMs = 15_000): Promise<Csr> {
  return eventually(async () => {
    const csr = await getCsr(server, name);
    return certificatePem(csr) ? csr : undefined;
  }, timeoutMs, `a certificate on CSR ${name}`);
}

/** Polls until the CSR has a condition of `type`; returns the CSR as then read. */
export async function awaitCondition(server: ApiServerProcess, name: string, type: string, timeoutMs = 15_000): Promise<Csr> {
  return eventually(async () => {
    const csr = await getCsr(server, name);
    return condition(csr, type) ? csr : undefined;
  }, timeoutMs, `condition ${type} on CSR ${name}`);
}

/**
 * Checks `holds` on every poll for `forMs` and throws at the first poll where it does not.
 * For "nothing happens" assertions, which have no event to wait for; run it after something
 * proved the controllers are working, so that the window is meaningful.
 */
export async function keepsHolding(what: string, holds: () => Promise<boolean>, forMs = 1_500): Promise<void> {
  const until = Date.now() + forMs;
  do {
    if (!(await holds())) throw new Error(`no longer true: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  } while (Date.now() < until);
}

/** The issued certificate, parsed. */
export function parseCertificate(pem: string): X509Certificate {
  return new X509Certificate(pem);
}

/** Subject lines of a certificate as a map of attribute → values, e.g. { CN: ['system:node:node1'], O: ['system:nodes'] }. */
export function subjectOf(cert: X509Certificate): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of cert.subject.split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) (out[line.slice(0, i)] ??= []).push(line.slice(i + 1));
  }
  return out;
}

export interface WhoAmI {
  username?: string;
  groups?: string[];
}

/** Who the apiserver says the holder of this client certificate is (SelfSubjectReview). */
export async function whoAmI(server: ApiServerProcess, cert: { cert: string; key: string }): Promise<WhoAmI> {
  const r = await server.request('POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', {
    cert,
    body: { apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' },
  });
  if (r.status !== 201) throw new Error(`SelfSubjectReview: ${r.status} ${r.body}`);
  return r.json<{ status: { userInfo: WhoAmI } }>().status.userInfo;
}
