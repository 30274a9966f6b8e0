// Who may approve and who may sign a CSR (certificates.md §2): RBAC on the /approval and /status
// subresources plus `approve`/`sign` on the synthetic `signers` resource, by exact signer name or
// `<domain>/*`; the system:masters restriction at create; the node client bootstrap roles.
import { join } from 'node:path';
import { startCluster, TestCluster } from './support/apiserver';
import { b64, makeCsr, signWithCa, type MadeRequest } from './support/openssl';
import { askAccess, awaitAccess, clusterGrant, clusterRoleBinding, group, kubectlCreate, user, type Rule } from './support/rbac';
import { makeUserCert, type ClientCert } from './support/users';

const csrGroup = 'certificates.svc.io';
const csrApi = `/apis/${csrGroup}/v1/certificatesigningrequests`;
const clientSigner = 'svc.io/svc-apiserver-client';
const svcletClientSigner = 'svc.io/svc-apiserver-client-svclet';
const customSigner = 'example.com/custom';

interface Csr {
  metadata: { name: string };
  spec: { signerName: string };
  status: { conditions?: { type: string; status: string; reason?: string }[]; certificate?: string };
}

let c: TestCluster;
const certs: Record<string, ClientCert> = {};
const requests = new Map<string, MadeRequest>();
let counter = 0;

const signerRule = (verbs: string[], names: string[]): Rule => ({ verbs, apiGroups: [csrGroup], resources: ['signers'], resourceNames: names });

beforeAll(async () => {
  c = await startCluster();
  // Every "pat" may update the subresources (group csr-updaters); what differs is the signer grant.
  certs['pat-none'] = makeUserCert(c.apiserver, 'pat-none', ['csr-updaters']);
  certs['pat-exact'] = makeUserCert(c.apiserver, 'pat-exact', ['csr-updaters']);
  certs['pat-wild'] = makeUserCert(c.apiserver, 'pat-wild', ['csr-updaters']);
  certs['approver'] = makeUserCert(c.apiserver, 'approver', ['csr-updaters']);
  // approve/sign on the signer but no update on the subresources
  certs['sam'] = makeUserCert(c.apiserver, 'sam');
  await kubectlCreate(c.apiserver, [
    ...clusterGrant(
      'csr-updater',
      [
        { verbs: ['get'], apiGroups: [csrGroup], resources: ['certificatesigningrequests'] },
        { verbs: ['update', 'patch'], apiGroups: [csrGroup], resources: ['certificatesigningrequests/approval', 'certificatesigningrequests/status'] },
      ],
      [group('csr-updaters')],
    ),
    ...clusterGrant('signer-exact', [signerRule(['approve', 'sign'], [clientSigner])], [user('pat-exact'), user('sam')]),
    ...clusterGrant('signer-wild', [signerRule(['approve', 'sign'], ['svc.io/*'])], [user('pat-wild')]),
    // the bootstrap approver role of the API-client signer, as an installer would bind it
    clusterRoleBinding('approver', 'system:certificates.svc.io:svc-apiserver-client-approver', [user('approver')]),
  ]);
  await awaitAccess(c.apiserver, [
    { user: 'pat-none', groups: ['csr-updaters'], verb: 'update', group: csrGroup, resource: 'certificatesigningrequests', subresource: 'approval' },
    { user: 'pat-exact', verb: 'sign', group: csrGroup, resource: 'signers', name: clientSigner },
    { user: 'pat-wild', verb: 'sign', group: csrGroup, resource: 'signers', name: 'svc.io/*' },
    { user: 'approver', verb: 'approve', group: csrGroup, resource: 'signers', name: clientSigner },
  ]);
}, 60_000);
afterAll(async () => {
  await c?.stop();
});

/** A fresh CSR for signerName, created by the admin; returns its name. */
async function newCsr(signerName: string, subject = '/CN=someone/O=devs'): Promise<string> {
  const name = `csr-${++counter}`;
  const made = makeCsr('ecdsa', subject);
  requests.set(name, made);
  const r = await c.apiserver.request('POST', csrApi, {
    body: { apiVersion: `${csrGroup}/v1`, kind: 'CertificateSigningRequest', metadata: { name }, spec: { request: b64(made.csrPem), signerName, usages: ['digital signature', 'client auth'] } },
  });
  if (r.status !== 201) throw new Error(`create CSR: ${r.status} ${r.body}`);
  return name;
}

async function get(name: string): Promise<Csr> {
  return (await c.apiserver.request('GET', `${csrApi}/${name}`)).json<Csr>();
}

async function approveAs(who: string | 'admin', name: string): Promise<{ status: number; message?: string; csr?: Csr }> {
  const cur = await get(name);
  cur.status.conditions = [{ type: 'Approved', status: 'True', reason: 'E2E' }];
  const r = await c.apiserver.request('PUT', `${csrApi}/${name}/approval`, { body: cur, cert: who === 'admin' ? undefined : certs[who] });
  return { status: r.status, message: r.json<{ message?: string }>().message, csr: r.status === 200 ? r.json<Csr>() : undefined };
}

const notPermitted = (action: 'approve' | 'sign', name: string, signer: string): string =>
  `certificatesigningrequests.${csrGroup} "${name}" is forbidden: user not permitted to ${action} requests with signerName "${signer}"`;

describe('approve', () => {
  test.each([
    ['pat-none', clientSigner, 403],
    ['pat-exact', clientSigner, 200],
    ['pat-wild', clientSigner, 200],
    ['approver', clientSigner, 200],
    ['pat-exact', svcletClientSigner, 403],
    ['pat-wild', svcletClientSigner, 200],
    ['approver', svcletClientSigner, 403],
    ['pat-exact', customSigner, 403],
    ['pat-wild', customSigner, 403],
  ])('%s approving a CSR for %s → %d', async (who, signer, status) => {
    const name = await newCsr(signer);
    const r = await approveAs(who, name);
    expect(r.status).toBe(status);
    if (status === 403) {
      expect(r.message).toBe(notPermitted('approve', name, signer));
      expect((await get(name)).status.conditions).toBeUndefined();
    } else {
      expect(r.csr?.status.conditions).toEqual([expect.objectContaining({ type: 'Approved', status: 'True', reason: 'E2E' })]);
    }
  });

  test('a JSON merge patch through /approval is checked the same way', async () => {
    const name = await newCsr(clientSigner);
    const patch = { status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Patched' }] } };
    const denied = await c.apiserver.request('PATCH', `${csrApi}/${name}/approval`, { body: patch, contentType: 'application/merge-patch+json', cert: certs['pat-none'] });
    expect(denied.status).toBe(403);
    expect(denied.json<{ message: string }>().message).toBe(notPermitted('approve', name, clientSigner));
    const ok = await c.apiserver.request('PATCH', `${csrApi}/${name}/approval`, { body: patch, contentType: 'application/merge-patch+json', cert: certs['pat-exact'] });
    expect(ok.status).toBe(200);
  });

  test('approve on the signer without update on /approval is refused by RBAC first', async () => {
    const name = await newCsr(clientSigner);
    const r = await approveAs('sam', name);
    expect(r.status).toBe(403);
    expect(r.message).toBe(
      `certificatesigningrequests.${csrGroup} "${name}" is forbidden: User "sam" cannot update resource "certificatesigningrequests/approval" in API group "${csrGroup}" at the cluster scope`,
    );
  });
});

describe('sign', () => {
  async function signAs(who: string, name: string): Promise<{ status: number; message?: string; certificate?: string }> {
    const made = requests.get(name);
    if (!made) throw new Error(`no request for ${name}`);
    const pem = signWithCa(made.csrPem, join(c.dir, 'pki', 'ca.crt'), c.apiserver.caKeyPath);
    const cur = await get(name);
    cur.status.certificate = b64(pem);
    const r = await c.apiserver.request('PUT', `${csrApi}/${name}/status`, { body: cur, cert: certs[who] });
    const body = r.json<Csr & { message?: string }>();
    return { status: r.status, message: body.message, certificate: r.status === 200 ? body.status.certificate : undefined };
  }

  test.each([
    ['pat-none', clientSigner, 403],
    ['approver', clientSigner, 403],
    ['pat-exact', clientSigner, 200],
    ['pat-wild', clientSigner, 200],
    ['pat-exact', svcletClientSigner, 403],
    ['pat-wild', svcletClientSigner, 200],
    ['pat-wild', customSigner, 403],
  ])('%s attaching a certificate to an approved CSR for %s → %d', async (who, signer, status) => {
    const name = await newCsr(signer);
    expect((await approveAs('admin', name)).status).toBe(200);
    const r = await signAs(who, name);
    expect(r.status).toBe(status);
    if (status === 403) {
      expect(r.message).toBe(notPermitted('sign', name, signer));
      expect((await get(name)).status.certificate).toBeUndefined();
    } else {
      expect(r.certificate).toMatch(/^[A-Za-z0-9+/]+=*$/);
    }
  });

  test('a status update that leaves certificate and conditions alone needs no sign', async () => {
    const name = await newCsr(clientSigner);
    const cur = await get(name);
    const r = await c.apiserver.request('PUT', `${csrApi}/${name}/status`, { body: cur, cert: certs['pat-none'] });
    expect(r.status).toBe(200);
  });
});

describe('CertificateSubjectRestriction', () => {
  test.each([
    [clientSigner, 403],
    [customSigner, 201],
  ])('a CSR for %s with O=system:masters → %d', async (signer, status) => {
    const name = `masters-${signer.replace(/[^a-z]/g, '')}`;
    const made = makeCsr('ecdsa', '/CN=root/O=team/O=system:masters');
    const r = await c.apiserver.request('POST', csrApi, {
      body: { apiVersion: `${csrGroup}/v1`, kind: 'CertificateSigningRequest', metadata: { name }, spec: { request: b64(made.csrPem), signerName: signer, usages: ['digital signature', 'client auth'] } },
    });
    expect(r.status).toBe(status);
    if (status === 403) {
      expect(r.json()).toMatchObject({
        reason: 'Forbidden',
        message: `certificatesigningrequests.${csrGroup} "${name}" is forbidden: use of ${clientSigner} signer with system:masters group is not allowed`,
      });
      expect((await c.apiserver.request('GET', `${csrApi}/${name}`)).status).toBe(404);
    }
  });
});

describe('node client bootstrap roles', () => {
  beforeAll(async () => {
    await kubectlCreate(c.apiserver, [
      clusterRoleBinding('bootstrap-nodeclient', 'system:certificates.svc.io:certificatesigningrequests:nodeclient', [group('system:bootstrappers')]),
      clusterRoleBinding('nodes-selfnodeclient', 'system:certificates.svc.io:certificatesigningrequests:selfnodeclient', [group('system:nodes')]),
    ]);
    await awaitAccess(c.apiserver, [
      { user: 'probe', groups: ['system:bootstrappers'], verb: 'create', group: csrGroup, resource: 'certificatesigningrequests', subresource: 'nodeclient' },
      { user: 'probe', groups: ['system:nodes'], verb: 'create', group: csrGroup, resource: 'certificatesigningrequests', subresource: 'selfnodeclient' },
    ]);
  });

  test.each([
    ['a bootstrapper', 'system:bootstrap:abcdef', ['system:bootstrappers'], 'nodeclient', true],
    ['a bootstrapper', 'system:bootstrap:abcdef', ['system:bootstrappers'], 'selfnodeclient', false],
    ['a node', 'system:node:n1', ['system:nodes'], 'selfnodeclient', true],
    ['a node', 'system:node:n1', ['system:nodes'], 'nodeclient', false],
    ['an ordinary user', 'someone', ['system:authenticated'], 'nodeclient', false],
  ])('SubjectAccessReview: %s (%s in %j) create certificatesigningrequests/%s → allowed %s', async (_label, name, groups, subresource, allowed) => {
    const answer = await askAccess(c.apiserver, { user: name, groups, verb: 'create', group: csrGroup, resource: 'certificatesigningrequests', subresource });
    expect(answer.allowed).toBe(allowed);
    if (allowed) expect(answer.reason).toContain(`ClusterRole "system:certificates.svc.io:certificatesigningrequests:${subresource}"`);
  });
});
