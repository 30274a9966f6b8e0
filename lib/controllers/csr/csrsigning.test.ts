import { X509Certificate } from 'node:crypto';
import { conditionTypes, signerNames, type CertificateSigningRequest } from '../../api';
import { FakeClock, Informer } from '../../client';
import { CsrSigner, SigningError, type SignableRequest, type SignOutcome } from '../../signing/signer';
import { makeCA, makeRequest, toRequestField } from '../../signing/signer/testing/requests';
import { formatApiTime } from './conditions';
import { csrResource } from './csrClient';
import { CsrSigningController, type CertificateIssuer, type SigningDecision } from './csrsigning';
import { newCsrSigningController } from './index';
import { approved, csrObject, denied, failed, waitFor, type CsrFields } from './testing/builders';
import { FakeCsrApi, statusError } from './testing/fakeCsrApi';

const pem = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
const pemB64 = Buffer.from(pem).toString('base64');
const conflict = (): Error => statusError(409, 'Conflict', 'the object has been modified');

class FakeIssuer implements CertificateIssuer {
  readonly signed: SignableRequest[] = [];
  outcome: SignOutcome | Error = { kind: 'issued', certificatePem: pem };
  /** Time signing takes on the fake clock. */
  tookMs = 0;
  constructor(
    private readonly clock: FakeClock,
    private readonly signers: readonly string[] = [signerNames.apiserverClientSvclet, signerNames.apiserverClient],
  ) {}
  handles(signerName: string): boolean {
    return this.signers.includes(signerName);
  }
  async sign(csr: SignableRequest): Promise<SignOutcome> {
    this.signed.push(csr);
    if (this.tookMs) await this.clock.advance(this.tookMs);
    if (this.outcome instanceof Error) throw this.outcome;
    return this.outcome;
  }
}

interface Setup {
  api: FakeCsrApi;
  clock: FakeClock;
  issuer: FakeIssuer;
  informer: Informer<CertificateSigningRequest>;
  controller: CsrSigningController;
  issued: Array<[string, number]>;
  failures: Array<[string, string]>;
}

function setup(): Setup {
  const api = new FakeCsrApi();
  const clock = new FakeClock(Date.parse('2026-01-10T08:02:00.250Z'));
  const issuer = new FakeIssuer(clock);
  const issued: Array<[string, number]> = [];
  const failures: Array<[string, string]> = [];
  const informer = new Informer<CertificateSigningRequest>({ listWatch: api, clock });
  const controller = new CsrSigningController({
    client: api,
    informer,
    signer: issuer,
    clock,
    metrics: { onIssued: (s, sec) => issued.push([s, sec]), onFailed: (s, r) => failures.push([s, r]) },
  });
  return { api, clock, issuer, informer, controller, issued, failures };
}

describe('csrsigning decisions', () => {
  test.each<[string, CsrFields, SigningDecision, boolean]>([
    ['approved → signed', { conditions: [approved()] }, 'issued', true],
    ['approved, apiserver-client signer → signed', { conditions: [approved()], signerName: signerNames.apiserverClient }, 'issued', true],
    ['pending', {}, 'skipped', false],
    ['denied', { conditions: [denied()] }, 'skipped', false],
    ['approved and denied', { conditions: [approved(), denied()] }, 'skipped', false],
    ['failed', { conditions: [failed()] }, 'skipped', false],
    ['approved but failed', { conditions: [approved(), failed()] }, 'skipped', false],
    ['approved but failed (empty status counts as true)', { conditions: [approved(), failed(undefined, '')] }, 'skipped', false],
    ['approved, failed False does not block', { conditions: [approved(), failed(undefined, 'False')] }, 'issued', true],
    ['already issued', { conditions: [approved()], certificate: pemB64 }, 'skipped', false],
    ['custom signer', { conditions: [approved()], signerName: 'example.com/custom' }, 'skipped', false],
    ['in-tree signer this process does not run', { conditions: [approved()], signerName: signerNames.svcletServing }, 'skipped', false],
  ])('%s', async (_name, fields, decision, signs) => {
    const s = setup();
    const csr = s.api.seed(csrObject(fields));
    expect(await s.controller.handle(csr)).toBe(decision);
    expect(s.issuer.signed.length).toBe(signs ? 1 : 0);
    const writes = s.api.callsOf('update');
    expect(writes.length).toBe(signs ? 1 : 0);
    if (signs) {
      expect(writes[0].subresource).toBe('status');
      expect((writes[0].body as CertificateSigningRequest).metadata?.resourceVersion).toBe(csr.metadata?.resourceVersion);
      expect(s.api.object('csr-1')?.status?.certificate).toBe(pemB64);
      expect(Buffer.from(s.api.object('csr-1')?.status?.certificate ?? '', 'base64').toString()).toBe(pem);
    } else {
      expect(s.api.object('csr-1')?.status?.certificate).toBe(fields.certificate);
    }
  });

  it('passes the request, usages and expirationSeconds to the signer', async () => {
    const s = setup();
    const csr = s.api.seed(csrObject({ conditions: [approved()], request: 'cmVx', usages: ['client auth'], expirationSeconds: 3600 }));
    await s.controller.handle(csr);
    expect(s.issuer.signed).toEqual([{ metadata: { name: 'csr-1' }, spec: { request: 'cmVx', signerName: signerNames.apiserverClientSvclet, usages: ['client auth'], expirationSeconds: 3600 } }]);
  });

  it('leaves a CSR the signer ignores untouched', async () => {
    const s = setup();
    s.issuer.outcome = { kind: 'ignored' };
    const csr = s.api.seed(csrObject({ conditions: [approved()] }));
    expect(await s.controller.handle(csr)).toBe('skipped');
    expect(s.api.callsOf('update')).toEqual([]);
  });

  it('counts an issued certificate with the time signing took', async () => {
    const s = setup();
    s.issuer.tookMs = 1500;
    await s.controller.handle(s.api.seed(csrObject({ conditions: [approved()] })));
    expect(s.issued).toEqual([[signerNames.apiserverClientSvclet, 1.5]]);
    expect(s.failures).toEqual([]);
  });

  it('records a constraint failure as a Failed condition through /status', async () => {
    const s = setup();
    s.issuer.outcome = { kind: 'failed', reason: 'SignerValidationFailure', message: 'subject organization is not system:nodes' };
    const csr = s.api.seed(csrObject({ conditions: [approved('2026-01-10T08:00:00Z')] }));
    expect(await s.controller.handle(csr)).toBe('failed');
    const [write] = s.api.callsOf('update');
    expect(write.subresource).toBe('status');
    expect((write.body as CertificateSigningRequest).status?.conditions).toEqual([
      approved('2026-01-10T08:00:00Z'),
      { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: 'subject organization is not system:nodes', lastUpdateTime: '2026-01-10T08:02:00Z' },
    ]);
    expect(s.api.object('csr-1')?.status?.certificate).toBeUndefined();
    expect(s.failures).toEqual([[signerNames.apiserverClientSvclet, 'SignerValidationFailure']]);
    expect(s.issued).toEqual([]);
  });

  it('a conflict writing the Failed condition is retried (thrown)', async () => {
    const s = setup();
    s.issuer.outcome = { kind: 'failed', reason: 'SignerValidationFailure', message: 'x' };
    s.api.failNext.update = [conflict()];
    await expect(s.controller.handle(s.api.seed(csrObject({ conditions: [approved()] })))).rejects.toThrow('error adding failure condition for csr: the object has been modified');
    expect(s.failures).toEqual([]);
  });

  it('a SigningError is thrown for a retry, nothing is written', async () => {
    const s = setup();
    s.issuer.outcome = new SigningError('the signer has expired: NotAfter=2026-01-01 00:00:00 +0000 UTC');
    await expect(s.controller.handle(s.api.seed(csrObject({ conditions: [approved()] })))).rejects.toThrow(
      'error auto signing csr: the signer has expired: NotAfter=2026-01-01 00:00:00 +0000 UTC',
    );
    expect(s.api.callsOf('update')).toEqual([]);
    expect(s.issued).toEqual([]);
  });
});

describe('csrsigning conflicts never sign twice', () => {
  it('a stale copy of a CSR that already got its certificate: one signature kept, nothing overwritten', async () => {
    const s = setup();
    const stale = s.api.seed(csrObject({ conditions: [approved()] }));
    expect(await s.controller.handle(structuredClone(stale))).toBe('issued');
    s.issuer.outcome = { kind: 'issued', certificatePem: pem.replace('fake', 'other') };
    // The informer has not seen the write yet and hands over the old copy again.
    expect(await s.controller.handle(structuredClone(stale))).toBe('superseded');
    expect(s.api.object('csr-1')?.status?.certificate).toBe(pemB64);
    expect(s.api.callsOf('get')).toHaveLength(1);
    expect(s.api.callsOf('update')).toHaveLength(2);
    expect(s.issued).toHaveLength(1);
  });

  it('a conflict from an unrelated change: the same certificate goes onto the current object, signed once', async () => {
    const s = setup();
    const stale = s.api.seed(csrObject({ conditions: [approved()] }));
    s.api.modify('csr-1', (c) => (c.metadata = { ...c.metadata, labels: { touched: 'yes' } }));
    expect(await s.controller.handle(stale)).toBe('issued');
    expect(s.issuer.signed).toHaveLength(1);
    const writes = s.api.callsOf('update');
    expect(writes.map((w) => (w.body as CertificateSigningRequest).metadata?.resourceVersion)).toEqual(['101', '102']);
    expect(s.api.object('csr-1')?.status?.certificate).toBe(pemB64);
    expect(s.api.object('csr-1')?.metadata?.labels).toEqual({ touched: 'yes' });
  });

  test.each<[string, (api: FakeCsrApi) => void]>([
    ['the CSR was deleted', (api) => void api.delete(csrResource, 'csr-1')],
    ['the CSR was recreated under the same name', (api) => void api.seed(csrObject({ conditions: [approved()] }))],
    ['the CSR got Failed meanwhile', (api) => void api.modify('csr-1', (c) => c.status?.conditions?.push(failed()))],
  ])('a conflict where %s: nothing written', async (_name, change) => {
    const s = setup();
    const stale = s.api.seed(csrObject({ conditions: [approved()] }));
    s.api.modify('csr-1', () => undefined);
    change(s.api);
    expect(await s.controller.handle(stale)).toBe('superseded');
    expect(s.api.callsOf('update')).toHaveLength(1);
    expect(s.api.object('csr-1')?.status?.certificate).toBeUndefined();
    expect(s.issued).toEqual([]);
  });

  it('a second conflict is thrown for a retry, after one signature', async () => {
    const s = setup();
    const stale = s.api.seed(csrObject({ conditions: [approved()] }));
    s.api.failNext.update = [conflict(), conflict()];
    await expect(s.controller.handle(stale)).rejects.toThrow('error updating signature for csr: the object has been modified');
    expect(s.issuer.signed).toHaveLength(1);
    expect(s.issued).toEqual([]);
  });

  it('other write errors are thrown without a re-read', async () => {
    const s = setup();
    s.api.failNext.update = [statusError(500, 'InternalError', 'etcd down')];
    await expect(s.controller.handle(s.api.seed(csrObject({ conditions: [approved()] })))).rejects.toThrow('error updating signature for csr: etcd down');
    expect(s.api.callsOf('get')).toEqual([]);
  });
});

describe('csrsigning run loop', () => {
  it('signs when a CSR gets approved, retries a SigningError with backoff', async () => {
    const s = setup();
    s.api.seed(csrObject({ name: 'late' }));
    s.issuer.outcome = new SigningError('temporarily unable');
    const abort = new AbortController();
    const running = s.controller.run(abort.signal);
    await waitFor(() => s.informer.hasSynced(), 'informer synced');
    expect(s.issuer.signed).toEqual([]);
    s.api.modify('late', (c) => (c.status = { conditions: [approved()] }));
    await waitFor(() => s.issuer.signed.length === 1, 'first attempt');
    s.issuer.outcome = { kind: 'issued', certificatePem: pem };
    await s.clock.advance(200);
    await waitFor(() => !!s.api.object('late')?.status?.certificate, 'certificate written after the retry');
    expect(s.issuer.signed).toHaveLength(2);
    abort.abort();
    await running;
  });
});

describe('csrsigning with the real signer', () => {
  it('issues a svclet client certificate from the CA and fails a request with the wrong organization', async () => {
    const now = Date.now();
    const ca = await makeCA(new Date(now - 3_600_000), new Date(now + 365 * 24 * 3_600_000));
    const api = new FakeCsrApi();
    const clock = new FakeClock(now);
    api.seed(csrObject({ name: 'node', conditions: [approved()], request: toRequestField(await makeRequest()) }));
    api.seed(csrObject({ name: 'bad-org', conditions: [approved()], request: toRequestField(await makeRequest({ subject: [{ CN: ['system:node:n1'] }, { O: ['ops'] }] })) }));
    const controller = newCsrSigningController({ client: api, clock, signer: new CsrSigner({ ca }) });
    expect(controller.name).toBe('csrsigning');
    const abort = new AbortController();
    const running = controller.run(abort.signal);
    await waitFor(() => !!api.object('node')?.status?.certificate && (api.object('bad-org')?.status?.conditions?.length ?? 0) === 2, 'both CSRs handled');
    abort.abort();
    await running;

    const cert = new X509Certificate(Buffer.from(api.object('node')?.status?.certificate ?? '', 'base64'));
    expect(cert.checkIssued(new X509Certificate(ca.certPem))).toBe(true);
    // Go's pkix.Name order: O before CN.
    expect(cert.subject).toBe('O=system:nodes\nCN=system:node:n1');
    const bad = api.object('bad-org');
    expect(bad?.status?.certificate).toBeUndefined();
    expect(bad?.status?.conditions?.[1]).toEqual({
      type: conditionTypes.failed,
      status: 'True',
      reason: 'SignerValidationFailure',
      message: 'subject organization is not system:nodes',
      lastUpdateTime: formatApiTime(now),
    });
  });
});
