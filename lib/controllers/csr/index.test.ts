import type { CertificateSigningRequest } from '../../api';
import { FakeClock, flushPromises, Informer } from '../../client';
import { csrControllerNames, newCsrController } from './index';
import type { CertificateIssuer } from './csrsigning';
import { approved, csrObject, waitFor } from './testing/builders';
import { FakeCsrApi } from './testing/fakeCsrApi';

const issuer: CertificateIssuer = {
  handles: () => true,
  sign: async () => ({ kind: 'issued', certificatePem: '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n' }),
};

describe('newCsrController', () => {
  it.each(csrControllerNames)('builds %s by name', (name) => {
    const c = newCsrController(name, { client: new FakeCsrApi(), signer: issuer });
    expect(c.name).toBe(name);
  });

  it('csrsigning needs a signer', () => {
    expect(() => newCsrController('csrsigning', { client: new FakeCsrApi() })).toThrow('csrsigning needs a signer (the cluster signing CA)');
  });

  it('controllers sharing one informer leave it running when they stop', async () => {
    const api = new FakeCsrApi();
    const clock = new FakeClock();
    api.seed(csrObject({ name: 'a', conditions: [approved()] }));
    const informer = new Informer<CertificateSigningRequest>({ listWatch: api, clock });
    const abort = new AbortController();
    const running = csrControllerNames.map((name) => newCsrController(name, { client: api, informer, clock, signer: issuer }).run(abort.signal));
    await waitFor(() => !!api.object('a')?.status?.certificate, 'signed through the shared informer');
    abort.abort();
    await Promise.all(running);
    api.seed(csrObject({ name: 'b' }));
    for (let i = 0; i < 5; i++) await flushPromises();
    expect(informer.getByName('b')).toBeDefined();
    await informer.stop();
  });
});
