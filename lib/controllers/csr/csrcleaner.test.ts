import type { CertificateSigningRequest } from '../../api';
import { FakeClock, Informer } from '../../client';
import { makeCA } from '../../signing/signer/testing/requests';
import { cleanReason, CsrCleanerController, csrCleanerDefaults, issuedNotAfter, type CleanReason, type CsrCleanerIntervals } from './csrcleaner';
import { newCsrCleanerController } from './index';
import type { ControllerLog } from './log';
import { approved, csrObject, denied, failed, waitFor, type CsrFields } from './testing/builders';
import { FakeCsrApi, statusError } from './testing/fakeCsrApi';

const min = 60_000;
const hour = 60 * min;
const now = Date.parse('2026-01-10T12:00:00Z');
const ago = (ms: number): string => new Date(now - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

let validCert: string;
let expiredCert: string;
beforeAll(async () => {
  const b64 = (pem: string): string => Buffer.from(pem).toString('base64');
  validCert = b64((await makeCA(new Date(now - 48 * hour), new Date(now + hour))).certPem);
  expiredCert = b64((await makeCA(new Date(now - 48 * hour), new Date(now - min))).certPem);
});

type Cert = 'valid' | 'expired' | 'garbage' | 'none';
const certificateOf = (c: Cert): string | undefined =>
  ({ valid: validCert, expired: expiredCert, garbage: Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n').toString('base64'), none: undefined })[c];

describe('cleanReason: ages × states', () => {
  test.each<[string, CsrFields, Cert, CleanReason | undefined, Partial<CsrCleanerIntervals>]>([
    ['pending, 24h and a second old', { creationTimestamp: ago(24 * hour + 1000) }, 'none', 'pending-past-deadline', {}],
    ['pending, exactly 24h old', { creationTimestamp: ago(24 * hour) }, 'none', undefined, {}],
    ['pending, 23h old', { creationTimestamp: ago(23 * hour) }, 'none', undefined, {}],
    ['pending without creationTimestamp', {}, 'none', undefined, {}],
    ['approved and issued 61m ago', { conditions: [approved(ago(61 * min))] }, 'valid', 'issued-past-deadline', {}],
    ['approved and issued 59m ago', { conditions: [approved(ago(59 * min))] }, 'valid', undefined, {}],
    ['approved and issued, lastUpdateTime unset', { conditions: [approved()], creationTimestamp: ago(48 * hour) }, 'valid', undefined, {}],
    ['approved and issued, zero lastUpdateTime', { conditions: [approved('0001-01-01T00:00:00Z')] }, 'valid', undefined, {}],
    ['approved, never issued, 2 days old', { conditions: [approved(ago(48 * hour))], creationTimestamp: ago(48 * hour) }, 'none', undefined, {}],
    ['denied 61m ago', { conditions: [denied(ago(61 * min))] }, 'none', 'denied-past-deadline', {}],
    ['denied 59m ago', { conditions: [denied(ago(59 * min))] }, 'none', undefined, {}],
    ['denied, lastUpdateTime unset, 2 days old', { conditions: [denied()], creationTimestamp: ago(48 * hour) }, 'none', undefined, {}],
    ['failed 61m ago', { conditions: [approved(ago(2 * min)), failed(ago(61 * min))] }, 'none', 'failed-past-deadline', {}],
    ['failed 30m ago', { conditions: [approved(ago(31 * min)), failed(ago(30 * min))] }, 'none', undefined, {}],
    ['approved 10m ago, certificate expired', { conditions: [approved(ago(10 * min))] }, 'expired', 'issued-expired', {}],
    ['approved, lastUpdateTime unset, certificate expired', { conditions: [approved()] }, 'expired', 'issued-expired', {}],
    ['not approved, certificate expired', { conditions: [failed(ago(1 * min))] }, 'expired', undefined, {}],
    ['approved 10m ago, unreadable certificate', { conditions: [approved(ago(10 * min))] }, 'garbage', undefined, {}],
    ['custom approvedExpiration 10m, approved 11m ago', { conditions: [approved(ago(11 * min))] }, 'valid', 'issued-past-deadline', { approvedExpiration: 10 * min }],
    ['custom deniedExpiration 2h, denied 61m ago', { conditions: [denied(ago(61 * min))] }, 'none', undefined, { deniedExpiration: 2 * hour }],
    ['custom pendingExpiration 1h, pending 2h', { creationTimestamp: ago(2 * hour) }, 'none', 'pending-past-deadline', { pendingExpiration: hour }],
  ])('%s', (_name, fields, cert, reason, limits) => {
    const csr = csrObject({ ...fields, certificate: certificateOf(cert) });
    expect(cleanReason(csr, now, { ...csrCleanerDefaults, ...limits })).toBe(reason);
  });

  it('reads NotAfter from the first PEM block only, and only when it is a certificate', () => {
    const pem = Buffer.from(expiredCert, 'base64').toString();
    const keyFirst = Buffer.from(`-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n${pem}`).toString('base64');
    expect(issuedNotAfter(csrObject({ certificate: expiredCert }))).toBe(now - min);
    expect(issuedNotAfter(csrObject({ certificate: keyFirst }))).toBeUndefined();
    expect(issuedNotAfter(csrObject({}))).toBeUndefined();
  });
});

interface Setup {
  api: FakeCsrApi;
  clock: FakeClock;
  controller: CsrCleanerController;
  errors: string[];
}

function setup(intervals: Partial<CsrCleanerIntervals> = {}): Setup {
  const api = new FakeCsrApi();
  const clock = new FakeClock(now);
  const informer = new Informer<CertificateSigningRequest>({ listWatch: api, clock });
  const errors: string[] = [];
  const log: ControllerLog = { debug: () => undefined, info: () => undefined, error: (m, f) => errors.push(`${m}: ${String(f?.err)}`) };
  return { api, clock, errors, controller: new CsrCleanerController({ client: api, informer, clock, log, ...intervals }) };
}

describe('CsrCleanerController', () => {
  it('deletes past-deadline CSRs through the API on a pass, with the uid as precondition', async () => {
    const s = setup();
    s.api.seed(csrObject({ name: 'old-pending', creationTimestamp: ago(25 * hour) }));
    s.api.seed(csrObject({ name: 'fresh-pending', creationTimestamp: ago(hour) }));
    s.api.seed(csrObject({ name: 'old-denied', conditions: [denied(ago(2 * hour))] }));
    s.api.seed(csrObject({ name: 'issued', conditions: [approved(ago(5 * min))], certificate: validCert }));
    const abort = new AbortController();
    const running = s.controller.run(abort.signal);
    await waitFor(() => s.api.callsOf('delete').length === 2, 'first pass');
    expect(s.api.names()).toEqual(['fresh-pending', 'issued']);
    expect(s.api.callsOf('delete').map((c) => [c.name, c.options])).toEqual([
      ['old-pending', { preconditions: { uid: 'uid-old-pending-1' } }],
      ['old-denied', { preconditions: { uid: 'uid-old-denied-3' } }],
    ]);
    abort.abort();
    await running;
  });

  it('passes again every pollingInterval after the previous pass', async () => {
    const s = setup({ pollingInterval: 10 * min });
    s.api.seed(csrObject({ name: 'issued', conditions: [approved(ago(55 * min))], certificate: validCert }));
    const abort = new AbortController();
    const running = s.controller.run(abort.signal);
    await waitFor(() => s.clock.pendingCount() > 0 && s.clock.nextDelay() === 10 * min, 'first pass done, next scheduled');
    expect(s.api.callsOf('delete')).toEqual([]);
    await s.clock.advance(10 * min);
    await waitFor(() => s.api.callsOf('delete').length === 1, 'second pass deletes the now-old CSR');
    expect(s.api.names()).toEqual([]);
    abort.abort();
    await running;
  });

  it('logs a failed delete and goes on; a CSR already gone is fine', async () => {
    const s = setup();
    s.api.seed(csrObject({ name: 'a', creationTimestamp: ago(25 * hour) }));
    s.api.seed(csrObject({ name: 'b', creationTimestamp: ago(25 * hour) }));
    s.api.seed(csrObject({ name: 'c', creationTimestamp: ago(25 * hour) }));
    const abort = new AbortController();
    const informer = new Informer<CertificateSigningRequest>({ listWatch: s.api, clock: s.clock });
    informer.start();
    await informer.waitForSync();
    const controller = new CsrCleanerController({ client: s.api, informer, clock: s.clock, log: { debug: () => undefined, info: () => undefined, error: (m, f) => s.errors.push(`${m}: ${String(f?.err)}`) } });
    s.api.failNext.delete = [statusError(500, 'InternalError', 'etcd down'), statusError(404, 'NotFound', 'gone')];
    expect(await controller.cleanOnce(abort.signal)).toEqual([{ name: 'c', reason: 'pending-past-deadline' }]);
    expect(s.errors).toEqual(['Error while attempting to clean CSR: unable to delete CSR "a": etcd down']);
    await informer.stop();
  });

  it('is built by name, with the interval options', () => {
    const c = newCsrCleanerController({ client: new FakeCsrApi(), pendingExpiration: 2 * hour });
    expect(c.name).toBe('csrcleaner');
    expect((c as CsrCleanerController).intervals).toEqual({ ...csrCleanerDefaults, pendingExpiration: 2 * hour });
    expect(() => newCsrCleanerController({ client: new FakeCsrApi(), pollingInterval: 0 })).toThrow('csrcleaner: pollingInterval must be positive, got 0');
  });
});
