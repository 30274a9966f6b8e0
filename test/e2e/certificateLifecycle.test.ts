// The certificate lifecycle through etcd + svc-apiserver + svc-controller-manager: node client
// CSRs auto-approved and issued, manual approval, denial, foreign signers, expirationSeconds and
// --cluster-signing-duration, the signer's policy checks (certificates.md §3, §4).
import { join } from 'node:path';
import { startCluster, type TestCluster } from './support/apiserver';
import { type ControllerManagerProcess, startControllerManager } from './support/controllerManager';
import {
  approve,
  awaitCondition,
  awaitIssued,
  certificatePem,
  clientUsages,
  condition,
  createCsr,
  csrManifest,
  deny,
  getCsr,
  keepsHolding,
  parseCertificate,
  servingUsages,
  signers,
  subjectOf,
  whoAmI,
  type Csr,
} from './support/csrs';
import { certificateText, makeCsr, makeCsrWithExtensions, verifyWithCa } from './support/openssl';
import { awaitAccess, clusterRoleBinding, group, kubectlCreate, toYaml } from './support/rbac';
import { makeUserCert, type ClientCert } from './support/users';

const minute = 60_000;
const hour = 60 * minute;
const backdate = 5 * minute;
/** Certificate times have whole seconds; the signer's clock reading lies between our two. */
const slack = 1_000;

let c: TestCluster;
let cm: ControllerManagerProcess;
let bootstrapper: ClientCert;
const timings: string[] = [];

beforeAll(async () => {
  c = await startCluster();
  cm = await startControllerManager(c);
  // What an installer binds: bootstrap tokens may ask for node client certificates, nodes may renew their own.
  await kubectlCreate(c.apiserver, [
    clusterRoleBinding('e2e-bootstrappers-create-csrs', 'system:node-bootstrapper', [group('system:bootstrappers')]),
    clusterRoleBinding('e2e-bootstrappers-nodeclient', 'system:certificates.svc.io:certificatesigningrequests:nodeclient', [group('system:bootstrappers')]),
    clusterRoleBinding('e2e-nodes-create-csrs', 'system:node-bootstrapper', [group('system:nodes')]),
    clusterRoleBinding('e2e-nodes-selfnodeclient', 'system:certificates.svc.io:certificatesigningrequests:selfnodeclient', [group('system:nodes')]),
  ]);
  const csrCreate = { verb: 'create', group: 'certificates.svc.io', resource: 'certificatesigningrequests' };
  await awaitAccess(c.apiserver, [
    { user: 'system:bootstrap:abc', groups: ['system:bootstrappers'], ...csrCreate },
    { user: 'system:bootstrap:abc', groups: ['system:bootstrappers'], ...csrCreate, subresource: 'nodeclient' },
    { user: 'system:node:node1', groups: ['system:nodes'], ...csrCreate },
    { user: 'system:node:node1', groups: ['system:nodes'], ...csrCreate, subresource: 'selfnodeclient' },
  ]);
  bootstrapper = makeUserCert(c.apiserver, 'system:bootstrap:abc', ['system:bootstrappers']);
}, 60_000);

afterAll(async () => {
  if (timings.length) console.info(`certificate lifecycle timings:\n  ${timings.join('\n  ')}`);
  await cm?.stop();
  await c?.stop();
});

const caFile = (): string => join(c.dir, 'pki', 'ca.crt');
const isPending = (csr: Csr): boolean => (csr.status?.conditions ?? []).length === 0 && !csr.status?.certificate;

/** The CSR's certificate checked against the cluster CA, parsed. */
function issuedCertificate(csr: Csr): ReturnType<typeof parseCertificate> {
  const pem = certificatePem(csr) ?? '';
  expect(pem.match(/-----BEGIN CERTIFICATE-----/g)).toHaveLength(1);
  const verified = verifyWithCa(pem, caFile());
  expect(verified).toEqual({ ok: true, output: expect.stringContaining(': OK') });
  return parseCertificate(pem);
}

/** notBefore = signing time − 5 min; notAfter = signing time + `after`, the signing time lying in [from, to]. */
function expectValidity(cert: ReturnType<typeof parseCertificate>, from: number, to: number, after: number): void {
  const notBefore = Date.parse(cert.validFrom);
  const notAfter = Date.parse(cert.validTo);
  expect(notBefore).toBeGreaterThanOrEqual(from - backdate - slack);
  expect(notBefore).toBeLessThanOrEqual(to - backdate + slack);
  expect(notAfter).toBeGreaterThanOrEqual(from + after - slack);
  expect(notAfter).toBeLessThanOrEqual(to + after + slack);
}

/** An admin client CSR approved by the admin: once issued, the signer has seen every CSR made before it. */
async function issueKnownGood(name: string): Promise<void> {
  await createCsr(c.apiserver, name, { request: makeCsr('ecdsa', `/CN=${name}`).csrPem, signerName: signers.client });
  await approve(c.apiserver, name);
  await awaitIssued(c.apiserver, name);
}

/** A node client CSR from the bootstrap user: once approved, the approver has seen every CSR made before it. */
async function autoApproveProbe(name: string): Promise<void> {
  const request = makeCsr('ecdsa', `/CN=system:node:${name}/O=system:nodes`).csrPem;
  await createCsr(c.apiserver, name, { request, signerName: signers.svcletClient }, { cert: bootstrapper });
  await awaitCondition(c.apiserver, name, 'Approved');
}

describe('node client certificates (svc.io/svc-apiserver-client-svclet)', () => {
  const node1 = makeCsr('ecdsa', '/CN=system:node:node1/O=system:nodes');
  let node1Cert: ClientCert;

  test('a bootstrapper’s ECDSA P-256 CSR is auto-approved, issued, and authenticates as the node', async () => {
    const created = Date.now();
    const posted = await createCsr(c.apiserver, 'node-csr-node1', { request: node1.csrPem, signerName: signers.svcletClient }, { cert: bootstrapper });
    expect(posted.spec).toMatchObject({ username: 'system:bootstrap:abc', groups: ['system:bootstrappers', 'system:authenticated'] });

    const csr = await awaitIssued(c.apiserver, 'node-csr-node1', 10_000);
    const issued = Date.now();
    timings.push(`node client CSR created → approved and issued: ${issued - created} ms`);
    expect(csr.status?.conditions).toEqual([
      expect.objectContaining({ type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'Auto approving svclet client certificate after SubjectAccessReview.' }),
    ]);

    const cert = issuedCertificate(csr);
    expect(subjectOf(cert)).toEqual({ CN: ['system:node:node1'], O: ['system:nodes'] });
    expect(cert.publicKey.asymmetricKeyType).toBe('ec');
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    // No expirationSeconds: --cluster-signing-duration's default, one year, backdated 5 min at both ends (ttl ≥ 8 h).
    expectValidity(cert, created, issued, 8760 * hour - backdate);
    const text = certificateText(certificatePem(csr) ?? '');
    expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Key Encipherment\n/);
    expect(text).toMatch(/X509v3 Extended Key Usage:\s+TLS Web Client Authentication\n/);
    expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:FALSE\n/);
    expect(text).not.toMatch(/Subject Alternative Name/);

    node1Cert = { cert: certificatePem(csr) ?? '', key: node1.keyPem };
    expect(await whoAmI(c.apiserver, node1Cert)).toMatchObject({ username: 'system:node:node1', groups: ['system:nodes', 'system:authenticated'] });
  });

  test('the node renews its own certificate: approved as selfnodeclient, and the new one authenticates', async () => {
    const renewal = makeCsr('ecdsa', '/CN=system:node:node1/O=system:nodes');
    const created = Date.now();
    const posted = await createCsr(c.apiserver, 'node-csr-node1-renewal', { request: renewal.csrPem, signerName: signers.svcletClient, usages: ['digital signature', 'client auth'] }, { cert: node1Cert });
    expect(posted.spec.username).toBe('system:node:node1');

    const csr = await awaitIssued(c.apiserver, 'node-csr-node1-renewal', 10_000);
    timings.push(`self node client CSR created → approved and issued: ${Date.now() - created} ms`);
    // system:nodes is bound only to selfnodeclient, so this message also proves which recognizer matched.
    expect(condition(csr, 'Approved')).toMatchObject({ reason: 'AutoApproved', message: 'Auto approving self svclet client certificate after SubjectAccessReview.' });
    const cert = issuedCertificate(csr);
    expect(subjectOf(cert)).toEqual({ CN: ['system:node:node1'], O: ['system:nodes'] });
    expect(certificateText(certificatePem(csr) ?? '')).toMatch(/X509v3 Key Usage: critical\s+Digital Signature\n/);
    expect(await whoAmI(c.apiserver, { cert: certificatePem(csr) ?? '', key: renewal.keyPem })).toMatchObject({ username: 'system:node:node1' });
  });

  test('a CSR with a DNS SAN, approved by the admin, fails the signer’s policy and gets no certificate', async () => {
    const request = makeCsrWithExtensions('ecdsa', '/CN=system:node:node2/O=system:nodes', ['subjectAltName=DNS:node2.example']).csrPem;
    await createCsr(c.apiserver, 'node-csr-with-dns', { request, signerName: signers.svcletClient });
    await approve(c.apiserver, 'node-csr-with-dns');
    const csr = await awaitCondition(c.apiserver, 'node-csr-with-dns', 'Failed');
    expect(condition(csr, 'Failed')).toMatchObject({ status: 'True', reason: 'SignerValidationFailure', message: 'DNS subjectAltNames are not allowed' });
    expect(condition(csr, 'Approved')?.reason).toBe('E2eApprove');
    expect(csr.status?.certificate).toBeUndefined();
    await keepsHolding('the Failed CSR has no certificate', async () => !(await getCsr(c.apiserver, 'node-csr-with-dns')).status?.certificate, 1_000);
  });

  test('a serving CSR (svc.io/svclet-serving) is never auto-approved', async () => {
    const request = makeCsrWithExtensions('ecdsa', '/CN=system:node:node1/O=system:nodes', ['subjectAltName=DNS:node1.example,IP:10.0.0.1']).csrPem;
    await createCsr(c.apiserver, 'node-serving-node1', { request, signerName: signers.svcletServing, usages: servingUsages }, { cert: bootstrapper });
    await autoApproveProbe('after-serving');
    expect(isPending(await getCsr(c.apiserver, 'node-serving-node1'))).toBe(true);
    await keepsHolding('the serving CSR stays pending', async () => isPending(await getCsr(c.apiserver, 'node-serving-node1')));
  });
});

describe('admin client certificates (svc.io/svc-apiserver-client)', () => {
  test('an RSA CSR stays pending until approved through /approval, then is issued and authenticates as its CN', async () => {
    const alice = makeCsr('rsa', '/CN=alice/O=devs');
    await createCsr(c.apiserver, 'alice-rsa', { request: alice.csrPem, signerName: signers.client });
    await autoApproveProbe('after-alice');
    await keepsHolding('alice-rsa stays pending', async () => isPending(await getCsr(c.apiserver, 'alice-rsa')), 1_000);

    const approved = Date.now();
    await approve(c.apiserver, 'alice-rsa');
    const csr = await awaitIssued(c.apiserver, 'alice-rsa');
    timings.push(`RSA CSR approved → issued: ${Date.now() - approved} ms`);
    expect(csr.status?.conditions?.map((x) => x.type)).toEqual(['Approved']);
    const cert = issuedCertificate(csr);
    expect(cert.publicKey.asymmetricKeyType).toBe('rsa');
    expect(subjectOf(cert)).toEqual({ CN: ['alice'], O: ['devs'] });
    expect(await whoAmI(c.apiserver, { cert: certificatePem(csr) ?? '', key: alice.keyPem })).toMatchObject({ username: 'alice', groups: ['devs', 'system:authenticated'] });
  });

  test('with kubectl alone: create -f, patch --subresource=approval, and the certificate read back with jsonpath', async () => {
    const bob = makeCsr('ecdsa', '/CN=bob/O=devs');
    const kubectl = async (args: string[], input?: string): Promise<string> => {
      const r = await c.apiserver.kubectl(args, { input });
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' });
      return r.stdout;
    };
    const manifest = csrManifest('bob-kubectl', { request: bob.csrPem, signerName: signers.client, expirationSeconds: 86400 });
    expect(await kubectl(['create', '-f', '-'], toYaml([manifest]))).toBe('certificatesigningrequest.certificates.svc.io/bob-kubectl created\n');
    const approval = { status: { conditions: [{ type: 'Approved', status: 'True', reason: 'ManualApproval', message: 'approved with kubectl' }] } };
    expect(await kubectl(['patch', 'csr', 'bob-kubectl', '--subresource=approval', '--type=merge', '-p', JSON.stringify(approval)])).toBe(
      'certificatesigningrequest.certificates.svc.io/bob-kubectl patched\n',
    );
    await awaitIssued(c.apiserver, 'bob-kubectl');
    const pem = Buffer.from(await kubectl(['get', 'csr', 'bob-kubectl', '-o', 'jsonpath={.status.certificate}']), 'base64').toString();
    expect(verifyWithCa(pem, caFile()).ok).toBe(true);
    expect(subjectOf(parseCertificate(pem))).toEqual({ CN: ['bob'], O: ['devs'] });
    expect(await whoAmI(c.apiserver, { cert: pem, key: bob.keyPem })).toMatchObject({ username: 'bob' });
  });

  test('a Denied CSR is never issued', async () => {
    await createCsr(c.apiserver, 'denied-client', { request: makeCsr('ecdsa', '/CN=mallory').csrPem, signerName: signers.client });
    await deny(c.apiserver, 'denied-client');
    await issueKnownGood('after-denied');
    await keepsHolding('the Denied CSR has no certificate and no Failed condition', async () => {
      const csr = await getCsr(c.apiserver, 'denied-client');
      return !csr.status?.certificate && csr.status?.conditions?.map((x) => x.type).join() === 'Denied';
    });
  });

  test('an approved CSR for a signer this process does not run (example.com/custom) is left alone', async () => {
    await createCsr(c.apiserver, 'custom-signer', { request: makeCsr('ecdsa', '/CN=custom').csrPem, signerName: 'example.com/custom', usages: clientUsages });
    await approve(c.apiserver, 'custom-signer');
    await issueKnownGood('after-custom');
    await keepsHolding('the example.com/custom CSR has no certificate and no Failed condition', async () => {
      const csr = await getCsr(c.apiserver, 'custom-signer');
      return !csr.status?.certificate && csr.status?.conditions?.map((x) => x.type).join() === 'Approved';
    });
  });

  test('expirationSeconds 3600 → one hour, not shortened (ttl < 8 h), notBefore backdated 5 min', async () => {
    const created = Date.now();
    await createCsr(c.apiserver, 'one-hour', { request: makeCsr('ecdsa', '/CN=one-hour').csrPem, signerName: signers.client, expirationSeconds: 3600 });
    await approve(c.apiserver, 'one-hour');
    const csr = await awaitIssued(c.apiserver, 'one-hour');
    expectValidity(issuedCertificate(csr), created, Date.now(), hour);
  });
});

describe('--cluster-signing-duration=2h', () => {
  let capped: ControllerManagerProcess;
  beforeAll(async () => {
    // One signer at a time: the default one hands its lease back, the capped one takes over.
    await cm.stop();
    capped = await startControllerManager(c, { extraArgs: ['--cluster-signing-duration=2h'] });
  });
  afterAll(async () => {
    await capped?.stop();
  });

  test('caps expirationSeconds 86400 at two hours, not shortened by the backdate (2 h < 8 h)', async () => {
    const created = Date.now();
    await createCsr(c.apiserver, 'capped', { request: makeCsr('ecdsa', '/CN=capped').csrPem, signerName: signers.client, expirationSeconds: 86400 });
    await approve(c.apiserver, 'capped');
    const csr = await awaitIssued(c.apiserver, 'capped');
    expect(csr.spec.expirationSeconds).toBe(86400);
    expectValidity(issuedCertificate(csr), created, Date.now(), 2 * hour);
  });
});
