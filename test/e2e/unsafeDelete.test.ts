// A CertificateSigningRequest whose etcd value is garbage, through the real server: reads fail
// as upstream 1.32's, and only the unsafe delete (gate AllowUnsafeMalformedObjectDeletion, the
// extra verb unsafe-delete-ignore-read-errors) removes it — audited, watchers get a DELETED.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3Storage } from '../../lib/etcd';
import { auditEventsOf } from './support/auditLog';
import { createCsr, csrPath, signers } from './support/csrs';
import { makeCsr } from './support/openssl';
import { awaitAccess, clusterGrant, kubectlCreate, user } from './support/rbac';
import { makeUserCert, type ClientCert } from './support/users';
import { startCluster, TestCluster, WatchStream } from './support/apiserver';

const option = 'ignoreStoreReadErrorWithClusterBreakingPotential';
const keyOf = (name: string): string => `/registry/certificatesigningrequests/${name}`;
const garbage = Buffer.from('\u0000not json at all{');

/** Creates a CSR through the API, then overwrites its etcd value with garbage; returns the revision written. */
async function corrupt(c: TestCluster, name: string): Promise<number> {
  await createCsr(c.apiserver, name, { request: makeCsr('ecdsa', `/CN=${name}`).csrPem, signerName: signers.client });
  const etcd = new Etcd3Storage({ endpoints: [c.etcd.endpoint] });
  try {
    return (await etcd.guaranteedUpdate(keyOf(name), () => garbage)).modRevision;
  } finally {
    await etcd.close();
  }
}

async function keyExists(c: TestCluster, name: string): Promise<boolean> {
  const etcd = new Etcd3Storage({ endpoints: [c.etcd.endpoint] });
  try {
    return (await etcd.get(keyOf(name))).kv !== null;
  } finally {
    await etcd.close();
  }
}

const storageErrorPrefix = (name: string, rev: number): string =>
  `StorageError: corrupt object, Code: 7, Key: ${keyOf(name)}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${rev}: `;

describe('gate off (default)', () => {
  let c: TestCluster;
  let rev: number;
  beforeAll(async () => {
    c = await startCluster();
    rev = await corrupt(c, 'broken');
  }, 60_000);
  afterAll(async () => {
    await c?.stop();
  });

  test('GET answers 500 naming the key', async () => {
    const r = await c.apiserver.request('GET', `${csrPath}/broken`);
    expect(r.status).toBe(500);
    const s = r.json<{ reason: string; message: string }>();
    expect(s.reason).toBe('InternalError');
    expect(s.message.startsWith(`Internal error occurred: ${storageErrorPrefix('broken', rev)}`)).toBe(true);
  });

  test('LIST answers 500 StorageReadError naming the key', async () => {
    const r = await c.apiserver.request('GET', csrPath);
    expect(r.status).toBe(500);
    const s = r.json<{ reason: string; message: string; details: { name: string; group: string; kind: string; causes: Array<{ reason: string; field: string; message: string }> } }>();
    expect(s).toMatchObject({
      reason: 'StorageReadError',
      message: 'failed to read one or more certificatesigningrequests.certificates.svc.io from the storage',
      details: { name: 'list', group: 'certificates.svc.io', kind: 'certificatesigningrequests' },
    });
    expect(s.details.causes.map((x) => [x.reason, x.field])).toEqual([['UnexpectedServerResponse', keyOf('broken')]]);
  });

  test.each([
    ['without the option', ''],
    ['with the option (dropped while the gate is off, as upstream)', `?${option}=true`],
  ])('DELETE %s answers 500 and the key stays', async (_what, query) => {
    const r = await c.apiserver.request('DELETE', `${csrPath}/broken${query}`);
    expect(r.status).toBe(500);
    expect(r.json<{ reason: string }>().reason).toBe('InternalError');
    expect(await keyExists(c, 'broken')).toBe(true);
  });
});

describe('gate on', () => {
  let c: TestCluster;
  let logDir: string;
  let logPath: string;
  let deleter: ClientCert;
  let unsafeDeleter: ClientCert;
  beforeAll(async () => {
    logDir = mkdtempSync(join(tmpdir(), 'svc-unsafe-'));
    logPath = join(logDir, 'audit.log');
    writeFileSync(join(logDir, 'policy.yaml'), 'apiVersion: audit.svc.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    c = await startCluster(['--feature-gates=AllowUnsafeMalformedObjectDeletion=true', `--audit-log-path=${logPath}`, `--audit-policy-file=${join(logDir, 'policy.yaml')}`]);
    deleter = makeUserCert(c.apiserver, 'deleter');
    unsafeDeleter = makeUserCert(c.apiserver, 'unsafe-deleter');
    const resources = { apiGroups: ['certificates.svc.io'], resources: ['certificatesigningrequests'] };
    await kubectlCreate(c.apiserver, [
      ...clusterGrant('csr-deleter', [{ verbs: ['delete'], ...resources }], [user('deleter')]),
      ...clusterGrant('csr-unsafe-deleter', [{ verbs: ['delete', 'unsafe-delete-ignore-read-errors'], ...resources }], [user('unsafe-deleter')]),
    ]);
    await awaitAccess(c.apiserver, [
      { user: 'deleter', verb: 'delete', group: 'certificates.svc.io', resource: 'certificatesigningrequests' },
      { user: 'unsafe-deleter', verb: 'unsafe-delete-ignore-read-errors', group: 'certificates.svc.io', resource: 'certificatesigningrequests' },
    ]);
  }, 60_000);
  afterAll(async () => {
    await c?.stop();
    rmSync(logDir, { recursive: true, force: true });
  });

  test('a user with only delete gets 403 with upstream message; the key stays', async () => {
    await corrupt(c, 'only-delete');
    const r = await c.apiserver.request('DELETE', `${csrPath}/only-delete?${option}=true`, { cert: deleter });
    expect(r.status).toBe(403);
    expect(r.json<{ message: string }>().message).toBe(
      'certificatesigningrequests.certificates.svc.io "only-delete" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors", reason: ',
    );
    expect(await keyExists(c, 'only-delete')).toBe(true);
    // Cleaned up by someone allowed, so later lists meet no corrupt key.
    expect((await c.apiserver.request('DELETE', `${csrPath}/only-delete?${option}=true`, { cert: unsafeDeleter })).status).toBe(200);
  });

  test('with both verbs the key is removed (body option), a watcher is told, and the audit event is annotated', async () => {
    const rev = await corrupt(c, 'doomed');
    const watch = new WatchStream(c.apiserver, `${csrPath}?watch=1&resourceVersion=${rev}`);
    try {
      const r = await c.apiserver.request('DELETE', `${csrPath}/doomed`, { cert: unsafeDeleter, body: { kind: 'DeleteOptions', apiVersion: 'v1', [option]: true } });
      expect(r.status).toBe(200);
      expect(r.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'doomed', kind: 'CertificateSigningRequest' }, code: 200 });
      expect(await keyExists(c, 'doomed')).toBe(false);

      // The watcher is told with a DELETED naming the object (its last value cannot be decoded),
      // at the delete's revision, and its watch goes on.
      const events = await watch.waitFor((ev) => ev.some((e) => e.type === 'DELETED'));
      expect(events.some((e) => e.type === 'ERROR')).toBe(false);
      const deleted = events.find((e) => e.type === 'DELETED')?.object as { kind: string; metadata: Record<string, string> };
      expect(deleted.kind).toBe('CertificateSigningRequest');
      expect(deleted.metadata.name).toBe('doomed');
      expect(Number(deleted.metadata.resourceVersion)).toBeGreaterThan(rev);
      await createCsr(c.apiserver, 'after-doomed', { request: makeCsr('ecdsa', '/CN=after-doomed').csrPem, signerName: signers.client });
      await watch.waitFor((ev) => ev.some((e) => e.type === 'ADDED' && (e.object as { metadata: { name: string } }).metadata.name === 'after-doomed'));

      const audit = await auditEventsOf(logPath, String(r.headers['audit-id']));
      const done = audit.find((e) => e.stage === 'ResponseComplete');
      expect(done?.annotations?.['apiserver.svc.io/unsafe-delete-ignore-read-error']).toBe('');
      expect(done?.responseStatus?.code).toBe(200);
    } finally {
      watch.close();
    }
    // Nothing corrupt is left: a list reads cleanly again.
    expect((await c.apiserver.request('GET', csrPath)).status).toBe(200);
  });

  test('the query parameter form works too', async () => {
    await corrupt(c, 'doomed-too');
    const r = await c.apiserver.request('DELETE', `${csrPath}/doomed-too?${option}=true`, { cert: unsafeDeleter });
    expect(r.status).toBe(200);
    expect(await keyExists(c, 'doomed-too')).toBe(false);
  });

  test('on a readable object the option is refused with 422 and the object stays', async () => {
    await createCsr(c.apiserver, 'fine', { request: makeCsr('ecdsa', '/CN=fine').csrPem, signerName: signers.client });
    const r = await c.apiserver.request('DELETE', `${csrPath}/fine?${option}=true`);
    expect(r.status).toBe(422);
    expect(r.json<{ message: string }>().message).toBe(
      `certificatesigningrequests.certificates.svc.io "fine" is invalid: ${option}: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option`,
    );
    expect((await c.apiserver.request('GET', `${csrPath}/fine`)).status).toBe(200);
  });

  test.each([
    ['dryRun=All', 'dryRun'],
    ['gracePeriodSeconds=0', 'gracePeriodSeconds'],
    ['propagationPolicy=Background', 'propagationPolicy'],
    ['orphanDependents=false', 'orphanDependents'],
  ])('with %s: 422 on DeleteOptions', async (extra, field) => {
    const r = await c.apiserver.request('DELETE', `${csrPath}/any?${option}=true&${extra}`);
    expect(r.status).toBe(422);
    const s = r.json<{ message: string; details: { kind: string; group: string; causes: Array<{ field: string; message: string }> } }>();
    expect(s.details).toMatchObject({ kind: 'DeleteOptions', group: 'meta.svc.io' });
    expect(s.details.causes).toContainEqual({ reason: 'FieldValueInvalid', field: option, message: `Invalid value: true: cannot be set together with .${field}` });
  });

  test('with preconditions in the body: 422', async () => {
    const r = await c.apiserver.request('DELETE', `${csrPath}/any`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', [option]: true, preconditions: { uid: 'x' } } });
    expect(r.status).toBe(422);
    expect(r.json<{ message: string }>().message).toBe(`DeleteOptions.meta.svc.io "" is invalid: ${option}: Invalid value: true: cannot be set together with .preconditions`);
  });

  test('on a collection: 422', async () => {
    const r = await c.apiserver.request('DELETE', `${csrPath}?${option}=true`);
    expect(r.status).toBe(422);
    expect(r.json<{ message: string }>().message).toBe(`DeleteOptions.meta.svc.io "" is invalid: ${option}: Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option`);
  });
});
