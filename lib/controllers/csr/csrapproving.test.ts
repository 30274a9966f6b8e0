import { apiVersionOf, groups, signerNames, subjectaccessreviews, type CertificateSigningRequest, type SubjectAccessReview } from '../../api';
import { FakeClock, Informer } from '../../client';
import { makeRequest, toRequestField, type RequestSpec } from '../../signing/signer/testing/requests';
import { IgnorableError } from './certificateController';
import { CsrApprovingController, type ApprovalSubresource } from './csrapproving';
import { newCsrApprovingController } from './index';
import type { ControllerLog } from './log';
import { approved, clientUsages, csrObject, denied, waitFor, type CsrFields } from './testing/builders';
import { FakeCsrApi, statusError } from './testing/fakeCsrApi';

const selfMessage = 'Auto approving self svclet client certificate after SubjectAccessReview.';
const nodeMessage = 'Auto approving svclet client certificate after SubjectAccessReview.';

const requests = new Map<string, Promise<string>>();
/** base64 PEM request, cached per shape (key generation is the slow part). */
function request(spec: RequestSpec = {}): Promise<string> {
  const key = JSON.stringify(spec);
  let r = requests.get(key);
  if (!r) requests.set(key, (r = makeRequest(spec).then(toRequestField)));
  return r;
}

interface Setup {
  api: FakeCsrApi;
  clock: FakeClock;
  informer: Informer<CertificateSigningRequest>;
  controller: CsrApprovingController;
  logs: string[];
}

function setup(allowed: readonly ApprovalSubresource[] = []): Setup {
  const api = new FakeCsrApi();
  api.reviewAnswer = (r) => allowed.includes(r.spec?.resourceAttributes?.subresource as ApprovalSubresource);
  const clock = new FakeClock();
  const informer = new Informer<CertificateSigningRequest>({ listWatch: api, clock });
  const logs: string[] = [];
  const log: ControllerLog = { debug: (m, f) => logs.push(`${m} ${String(f?.err ?? '')}`), info: () => undefined, error: (m) => logs.push(`error ${m}`) };
  return { api, clock, informer, controller: new CsrApprovingController({ client: api, informer, clock, log }), logs };
}

const reviewedSubresources = (api: FakeCsrApi): string[] =>
  api.callsOf('create').map((c) => (c.body as SubjectAccessReview).spec?.resourceAttributes?.subresource ?? '');

type Row = [name: string, spec: RequestSpec, fields: CsrFields, allowed: ApprovalSubresource[], outcome: ApprovalSubresource | 'error' | 'skipped', tried: ApprovalSubresource[]];

const node = 'system:node:n1';
const bootstrap = 'system:bootstrap:abcdef';

describe('csrapproving recognizers × requester × review', () => {
  test.each<Row>([
    ['own renewal, selfnodeclient allowed', {}, { username: node }, ['selfnodeclient'], 'selfnodeclient', ['selfnodeclient']],
    ['own renewal, only nodeclient allowed', {}, { username: node }, ['nodeclient'], 'nodeclient', ['selfnodeclient', 'nodeclient']],
    ['own renewal, both allowed → self first', {}, { username: node }, ['selfnodeclient', 'nodeclient'], 'selfnodeclient', ['selfnodeclient']],
    ['own renewal, nothing allowed', {}, { username: node }, [], 'error', ['selfnodeclient', 'nodeclient']],
    ['bootstrap user, nodeclient allowed', {}, { username: bootstrap }, ['nodeclient'], 'nodeclient', ['nodeclient']],
    ['bootstrap user, only selfnodeclient allowed', {}, { username: bootstrap }, ['selfnodeclient'], 'error', ['nodeclient']],
    ['another node asking for n1', {}, { username: 'system:node:n2' }, ['selfnodeclient', 'nodeclient'], 'nodeclient', ['nodeclient']],
    ['usages without key encipherment', {}, { username: node, usages: ['digital signature', 'client auth'] }, ['selfnodeclient'], 'selfnodeclient', ['selfnodeclient']],
    ['usages with server auth', {}, { username: node, usages: [...clientUsages, 'server auth'] }, ['selfnodeclient', 'nodeclient'], 'skipped', []],
    ['organization not system:nodes', { subject: [{ CN: [node] }, { O: ['ops'] }] }, { username: node }, ['selfnodeclient', 'nodeclient'], 'skipped', []],
    ['common name not a node', { subject: [{ CN: ['alice'] }, { O: ['system:nodes'] }] }, { username: 'alice' }, ['selfnodeclient', 'nodeclient'], 'skipped', []],
    ['a DNS SAN', { dns: ['n1.example'] }, { username: node }, ['selfnodeclient', 'nodeclient'], 'skipped', []],
    ['an IP SAN', { ips: ['10.0.0.1'] }, { username: node }, ['selfnodeclient', 'nodeclient'], 'skipped', []],
    ['apiserver-client signer', {}, { username: node, signerName: signerNames.apiserverClient }, ['selfnodeclient', 'nodeclient'], 'skipped', []],
    ['custom signer', {}, { username: node, signerName: 'example.com/x' }, ['selfnodeclient', 'nodeclient'], 'skipped', []],
    [
      'svclet serving request',
      { dns: ['n1.example'] },
      { username: node, signerName: signerNames.svcletServing, usages: ['digital signature', 'key encipherment', 'server auth'] },
      ['selfnodeclient', 'nodeclient'],
      'skipped',
      [],
    ],
  ])('%s', async (_name, spec, fields, allowed, outcome, tried) => {
    const s = setup(allowed);
    const csr = s.api.seed(csrObject({ ...fields, request: await request(spec) }));
    if (outcome === 'error') {
      const err = await s.controller.handle(csr).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(IgnorableError);
      expect((err as Error).message).toBe(`recognized csr "csr-1" as [${tried.join(' ')}] but subject access review was not approved`);
    } else if (outcome === 'skipped') {
      expect(await s.controller.handle(csr)).toEqual({ kind: 'skipped' });
    } else {
      expect(await s.controller.handle(csr)).toEqual({ kind: 'approved', subresource: outcome, tried });
    }
    expect(reviewedSubresources(s.api)).toEqual(tried);
    const writes = s.api.callsOf('update');
    if (outcome === 'selfnodeclient' || outcome === 'nodeclient') {
      expect(writes).toHaveLength(1);
      expect(writes[0].subresource).toBe('approval');
      expect(s.api.object('csr-1')?.status?.conditions).toEqual([
        { type: 'Approved', status: 'True', reason: 'AutoApproved', message: outcome === 'selfnodeclient' ? selfMessage : nodeMessage },
      ]);
    } else {
      expect(writes).toEqual([]);
      expect(s.api.object('csr-1')?.status?.conditions).toBeUndefined();
    }
  });
});

describe('csrapproving', () => {
  test.each<[string, CsrFields]>([
    ['already approved', { conditions: [approved()] }],
    ['denied', { conditions: [denied()] }],
    ['denied with another status', { conditions: [denied(undefined, 'Unknown')] }],
    ['issued', { certificate: 'Y2VydA==' }],
  ])('leaves a CSR that is %s alone without reading its request', async (_name, fields) => {
    const s = setup(['selfnodeclient', 'nodeclient']);
    const csr = s.api.seed(csrObject({ ...fields, username: node, request: 'bm90IGEgcmVxdWVzdA==' }));
    expect(await s.controller.handle(csr)).toEqual({ kind: 'skipped' });
    expect(s.api.calls.filter((c) => c.verb !== 'get')).toEqual([]);
  });

  it('an unreadable request is an error (retried)', async () => {
    const s = setup(['nodeclient']);
    const csr = s.api.seed(csrObject({ username: node, request: Buffer.from('garbage').toString('base64') }));
    await expect(s.controller.handle(csr)).rejects.toThrow('unable to parse csr "csr-1": PEM block type must be CERTIFICATE REQUEST');
    expect(s.api.calls.filter((c) => c.verb === 'create')).toEqual([]);
  });

  it('asks the review as the requester, for create on certificatesigningrequests/<subresource>', async () => {
    const s = setup(['selfnodeclient']);
    const extra = { 'authentication.svc.io/credential-id': ['X509SHA256=ab'] };
    const csr = s.api.seed(csrObject({ username: node, uid: 'u-1', groups: ['system:nodes', 'system:authenticated'], extra, request: await request() }));
    await s.controller.handle(csr);
    const [call] = s.api.callsOf('create');
    expect(call.resource).toBe(subjectaccessreviews.resource);
    expect(call.body).toEqual({
      apiVersion: apiVersionOf(subjectaccessreviews),
      kind: 'SubjectAccessReview',
      metadata: {},
      spec: {
        user: node,
        uid: 'u-1',
        groups: ['system:nodes', 'system:authenticated'],
        extra,
        resourceAttributes: { group: groups.certificates, resource: 'certificatesigningrequests', verb: 'create', subresource: 'selfnodeclient' },
      },
    });
    expect(apiVersionOf(subjectaccessreviews)).toBe(`${groups.authorization}/v1`);
  });

  it('a failed review request is thrown, nothing approved', async () => {
    const s = setup();
    s.api.reviewAnswer = () => statusError(503, 'ServiceUnavailable', 'authorizer unavailable');
    const csr = s.api.seed(csrObject({ username: node, request: await request() }));
    const err = await s.controller.handle(csr).catch((e: unknown) => e);
    expect((err as Error).message).toBe('authorizer unavailable');
    expect(err).not.toBeInstanceOf(IgnorableError);
    expect(s.api.callsOf('update')).toEqual([]);
  });

  it('a failed approval write is thrown', async () => {
    const s = setup(['selfnodeclient']);
    s.api.failNext.update = [statusError(409, 'Conflict', 'the object has been modified')];
    const csr = s.api.seed(csrObject({ username: node, request: await request() }));
    await expect(s.controller.handle(csr)).rejects.toThrow('error updating approval for csr: the object has been modified');
  });

  it('retries with backoff until the requester gets the permission, logging the upstream message quietly', async () => {
    const allowed: ApprovalSubresource[] = [];
    const s = setup();
    s.api.reviewAnswer = (r) => allowed.includes(r.spec?.resourceAttributes?.subresource as ApprovalSubresource);
    s.api.seed(csrObject({ name: 'n1-renewal', username: bootstrap, request: await request() }));
    const abort = new AbortController();
    const running = s.controller.run(abort.signal);
    await waitFor(() => s.api.callsOf('create').length === 1, 'first review');
    expect(s.logs).toEqual(['sync certificate request failed recognized csr "n1-renewal" as [nodeclient] but subject access review was not approved']);
    allowed.push('nodeclient');
    await s.clock.advance(200);
    await waitFor(() => (s.api.object('n1-renewal')?.status?.conditions?.length ?? 0) === 1, 'approved after the retry');
    expect(s.api.object('n1-renewal')?.status?.conditions?.[0].message).toBe(nodeMessage);
    abort.abort();
    await running;
  });

  it('is built by name with its own informer', async () => {
    const api = new FakeCsrApi();
    api.reviewAnswer = () => true;
    api.seed(csrObject({ username: node, request: await request() }));
    const controller = newCsrApprovingController({ client: api, clock: new FakeClock() });
    expect(controller.name).toBe('csrapproving');
    const abort = new AbortController();
    const running = controller.run(abort.signal);
    await waitFor(() => !!api.object('csr-1')?.status?.conditions?.length, 'approval');
    abort.abort();
    await running;
    expect(api.object('csr-1')?.status?.conditions?.[0]).toMatchObject({ type: 'Approved', reason: 'AutoApproved', message: selfMessage });
  });
});
