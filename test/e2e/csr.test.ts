// The manual CSR lifecycle through the real processes: create → approve via /approval →
// attach a certificate via /status → immutability; validation errors as upstream.
import { join } from 'node:path';
import { startCluster, TestCluster } from './support/apiserver';
import { b64, makeCsr, signWithCa } from './support/openssl';

const base = '/apis/certificates.svc.io/v1/certificatesigningrequests';
const usages = ['digital signature', 'key encipherment', 'client auth'];

interface Csr {
  metadata: { name: string; resourceVersion: string; uid: string };
  spec: { username?: string; groups?: string[]; uid?: string; request: string; signerName: string; usages: string[] };
  status: { conditions?: { type: string; status: string; reason?: string; lastUpdateTime?: string; lastTransitionTime?: string }[]; certificate?: string };
}

let c: TestCluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

describe.each(['rsa', 'ecdsa'] as const)('%s certificate request lifecycle', (kind) => {
  const name = `lifecycle-${kind}`;
  const made = makeCsr(kind, `/CN=alice-${kind}/O=devs`);

  test('create fills the requester identity and clears status', async () => {
    const r = await c.apiserver.request('POST', base, {
      body: {
        apiVersion: 'certificates.svc.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name },
        spec: { request: b64(made.csrPem), signerName: 'svc.io/svc-apiserver-client', usages, username: 'mallory', groups: ['system:masters'] },
        status: { certificate: b64('junk') },
      },
    });
    expect(r.status).toBe(201);
    const csr = r.json<Csr>();
    expect(csr.spec.username).toBe('admin');
    expect(csr.spec.groups).toEqual(['system:masters', 'system:authenticated']);
    expect(csr.status).toEqual({});
    expect(csr.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('approval through /approval sets the condition times', async () => {
    const cur = (await c.apiserver.request('GET', `${base}/${name}`)).json<Csr>();
    cur.status.conditions = [{ type: 'Approved', status: 'True', reason: 'ManualApproval' }];
    const r = await c.apiserver.request('PUT', `${base}/${name}/approval`, { body: cur });
    expect(r.status).toBe(200);
    const cond = r.json<Csr>().status.conditions?.[0];
    expect(cond).toMatchObject({ type: 'Approved', status: 'True', reason: 'ManualApproval' });
    expect(cond?.lastUpdateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(cond?.lastTransitionTime).toBe(cond?.lastUpdateTime);
  });

  test('the main endpoint cannot change spec or status', async () => {
    const cur = (await c.apiserver.request('GET', `${base}/${name}`)).json<Csr>();
    const changed = { ...cur, spec: { ...cur.spec, usages: ['server auth'] }, status: {} };
    const r = await c.apiserver.request('PUT', `${base}/${name}`, { body: changed });
    expect(r.status).toBe(200);
    expect(r.json<Csr>().spec.usages).toEqual(usages);
    expect(r.json<Csr>().status.conditions?.[0].type).toBe('Approved');
  });

  test('a certificate is attached through /status and is immutable afterwards', async () => {
    const pki = join(c.dir, 'pki');
    const certPem = signWithCa(made.csrPem, join(pki, 'ca.crt'), join(pki, 'ca.key'));
    const cur = (await c.apiserver.request('GET', `${base}/${name}/status`)).json<Csr>();
    cur.status.certificate = b64(certPem);
    const r = await c.apiserver.request('PUT', `${base}/${name}/status`, { body: cur });
    expect(r.status).toBe(200);
    expect(Buffer.from(r.json<Csr>().status.certificate ?? '', 'base64').toString()).toBe(certPem);

    const other = signWithCa(made.csrPem, join(pki, 'ca.crt'), join(pki, 'ca.key'), 2);
    const again = r.json<Csr>();
    again.status.certificate = b64(other);
    const r2 = await c.apiserver.request('PUT', `${base}/${name}/status`, { body: again });
    expect(r2.status).toBe(422);
    expect(r2.json()).toMatchObject({
      reason: 'Invalid',
      details: { causes: [{ reason: 'FieldValueForbidden', field: 'status.certificate', message: 'Forbidden: updates may not modify existing certificate content' }] },
    });
  });

  test('the Approved condition cannot be removed', async () => {
    const cur = (await c.apiserver.request('GET', `${base}/${name}`)).json<Csr>();
    cur.status.conditions = [];
    const r = await c.apiserver.request('PUT', `${base}/${name}/approval`, { body: cur });
    expect(r.status).toBe(422);
    expect(r.json<{ message: string }>().message).toContain('updates may not remove a condition of type "Approved"');
  });
});

describe('validation', () => {
  const made = makeCsr('ecdsa', '/CN=bob');
  const csr = (spec: Record<string, unknown>, name = 'bad'): unknown => ({
    apiVersion: 'certificates.svc.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: b64(made.csrPem), ...spec },
  });

  test.each([
    [
      'missing signerName and usages',
      {},
      'CertificateSigningRequest.certificates.svc.io "bad" is invalid: [spec.usages: Required value, spec.signerName: Required value]',
    ],
    [
      'legacy signer',
      { signerName: 'svc.io/legacy-unknown', usages },
      'CertificateSigningRequest.certificates.svc.io "bad" is invalid: spec.signerName: Invalid value: "svc.io/legacy-unknown": the legacy signerName is not allowed via this API version',
    ],
    [
      'short expiration',
      { signerName: 'example.com/x', usages, expirationSeconds: 599 },
      'CertificateSigningRequest.certificates.svc.io "bad" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)',
    ],
    [
      'duplicate usage',
      { signerName: 'example.com/x', usages: ['client auth', 'client auth'] },
      'CertificateSigningRequest.certificates.svc.io "bad" is invalid: spec.usages[1]: Duplicate value: "client auth"',
    ],
  ])('%s → 422', async (_what, spec, message) => {
    const r = await c.apiserver.request('POST', base, { body: csr(spec) });
    expect(r.status).toBe(422);
    expect(r.json()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Invalid', code: 422, message });
  });

  test('a request that is not a CSR PEM → 422 on spec.request', async () => {
    const r = await c.apiserver.request('POST', base, { body: csr({ signerName: 'example.com/x', usages, request: b64('not pem') }) });
    expect(r.status).toBe(422);
    expect(r.json<{ details: { causes: { field: string }[] } }>().details.causes[0].field).toBe('spec.request');
  });

  test('Approved and Denied together are refused on /approval', async () => {
    const created = await c.apiserver.request('POST', base, { body: csr({ signerName: 'example.com/x', usages }, 'both') });
    expect(created.status).toBe(201);
    const cur = created.json<Csr>();
    cur.status.conditions = [
      { type: 'Approved', status: 'True' },
      { type: 'Denied', status: 'True' },
    ];
    const r = await c.apiserver.request('PUT', `${base}/both/approval`, { body: cur });
    expect(r.status).toBe(422);
    expect(r.json<{ message: string }>().message).toContain('Approved and Denied conditions are mutually exclusive');
  });

  test('a stale resourceVersion on update → 409 Conflict', async () => {
    const created = await c.apiserver.request('POST', base, { body: csr({ signerName: 'example.com/x', usages }, 'stale') });
    const cur = created.json<Csr>();
    cur.status.conditions = [{ type: 'Denied', status: 'True' }];
    expect((await c.apiserver.request('PUT', `${base}/stale/approval`, { body: cur })).status).toBe(200);
    const r = await c.apiserver.request('PUT', `${base}/stale/approval`, { body: cur });
    expect(r.status).toBe(409);
    expect(r.json()).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on certificatesigningrequests.certificates.svc.io "stale": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  test('delete answers a Success Status', async () => {
    const r = await c.apiserver.request('DELETE', `${base}/stale`);
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'stale', group: 'certificates.svc.io', kind: 'certificatesigningrequests' } });
    expect((await c.apiserver.request('GET', `${base}/stale`)).status).toBe(404);
  });
});
