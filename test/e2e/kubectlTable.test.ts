// Tables through the real server: raw HTTPS get/list/watch with as=Table, and stock kubectl
// (1.32 and every installed minor) printing upstream's columns for each kind.
import { spawn } from 'node:child_process';
import * as https from 'node:https';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCluster, TestCluster, eventually } from './support/apiserver';
import { kubectlMinor } from './support/kubectlBinaries';
import { b64, makeCsr } from './support/openssl';

let c: TestCluster;

const svcTable = 'application/json;as=Table;v=v1;g=meta.svc.io';
const kubectlAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

interface Table {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: { name: string; type: string; format: string; description: string; priority: number }[] | null;
  rows: { cells: unknown[]; object: { kind?: string; apiVersion?: string; metadata?: { name?: string }; spec?: unknown } | null }[];
}

async function ok(args: string[], binary?: string): Promise<string> {
  const r = await c.apiserver.kubectl(args, { binary });
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

async function table(path: string, accept = svcTable): Promise<Table> {
  const r = await c.apiserver.request('GET', path, { headers: { Accept: accept } });
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.body}`);
  expect(r.headers['content-type']).toBe('application/json');
  return r.json<Table>();
}

beforeAll(async () => {
  c = await startCluster();
  await ok(['create', 'ns', 'tbl']);
  await ok(['create', 'sa', 'bot', '-n', 'tbl']);
  await ok(['patch', 'sa', 'bot', '-n', 'tbl', '-p', '{"secrets":[{"name":"s1"},{"name":"s2"}]}']);
  // `kubectl create rolebinding/role` post to the upstream group name, so these go in as files.
  const rbac = join(c.dir, 'rbac.yaml');
  writeFileSync(
    rbac,
    [
      'apiVersion: rbac.authorization.svc.io/v1',
      'kind: RoleBinding',
      'metadata: {name: rb, namespace: tbl}',
      'roleRef: {apiGroup: rbac.authorization.svc.io, kind: ClusterRole, name: view}',
      'subjects:',
      '- {kind: User, name: alice, apiGroup: rbac.authorization.svc.io}',
      '- {kind: Group, name: devs, apiGroup: rbac.authorization.svc.io}',
      '- {kind: ServiceAccount, name: bot, namespace: tbl}',
      '- {kind: User, name: bob, apiGroup: rbac.authorization.svc.io}',
      '---',
      'apiVersion: rbac.authorization.svc.io/v1',
      'kind: Role',
      'metadata: {name: reader, namespace: tbl}',
      'rules:',
      '- {apiGroups: [""], resources: [serviceaccounts], verbs: [get]}',
      '',
    ].join('\n'),
  );
  await ok(['create', '-f', rbac]);
  const lease = join(c.dir, 'lease.yaml');
  writeFileSync(lease, 'apiVersion: coordination.svc.io/v1\nkind: Lease\nmetadata:\n  name: lock\n  namespace: tbl\nspec:\n  holderIdentity: cm-1\n');
  await ok(['create', '-f', lease]);
  for (const [name, seconds] of [
    ['csr-plain', undefined],
    ['csr-ten', 600],
  ] as const) {
    const csr = join(c.dir, `${name}.yaml`);
    const lines = ['apiVersion: certificates.svc.io/v1', 'kind: CertificateSigningRequest', 'metadata:', `  name: ${name}`, 'spec:'];
    lines.push(`  request: ${b64(makeCsr('ecdsa', `/CN=${name}`).csrPem)}`, '  signerName: svc.io/svc-apiserver-client', '  usages:', '  - client auth');
    if (seconds) lines.push(`  expirationSeconds: ${seconds}`);
    writeFileSync(csr, `${lines.join('\n')}\n`);
    await ok(['create', '-f', csr]);
  }
  // `kubectl certificate approve` only handles the upstream group: approve through /approval.
  const path = '/apis/certificates.svc.io/v1/certificatesigningrequests/csr-ten';
  const csr = (await c.apiserver.request('GET', path)).json<{ status?: { conditions?: unknown[] } }>();
  csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }] };
  const approved = await c.apiserver.request('PUT', `${path}/approval`, { body: csr });
  if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${approved.body}`);
});
afterAll(async () => {
  await c?.stop();
});

describe('raw Table requests', () => {
  test('GET one CSR as a Table in meta.svc.io/v1: columns, cells, PartialObjectMetadata row', async () => {
    const t = await table('/apis/certificates.svc.io/v1/certificatesigningrequests/csr-ten');
    expect(t.kind).toBe('Table');
    expect(t.apiVersion).toBe('meta.svc.io/v1');
    expect(t.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(t.columnDefinitions?.map((d) => [d.name, d.type, d.format, d.priority])).toEqual([
      ['Name', 'string', 'name', 0],
      ['Age', 'string', '', 0],
      ['SignerName', 'string', '', 0],
      ['Requestor', 'string', '', 0],
      ['RequestedDuration', 'string', '', 0],
      ['Condition', 'string', '', 0],
    ]);
    expect(t.rows).toHaveLength(1);
    const [name, age, ...rest] = t.rows[0].cells;
    expect(name).toBe('csr-ten');
    expect(age).toMatch(/^\d+s$|^\d+m/);
    expect(rest).toEqual(['svc.io/svc-apiserver-client', 'admin', '10m', 'Approved']);
    expect(t.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.svc.io/v1', metadata: { name: 'csr-ten' } });
  });

  test("kubectl's Accept gets the Table under meta.k8s.io; v1beta1 as asked", async () => {
    expect((await table('/api/v1/namespaces/tbl', kubectlAccept)).apiVersion).toBe('meta.k8s.io/v1');
    const beta = await table('/api/v1/namespaces/tbl', 'application/json;as=Table;v=v1beta1;g=meta.svc.io');
    expect(beta.apiVersion).toBe('meta.svc.io/v1beta1');
    expect(beta.rows[0].cells.slice(0, 2)).toEqual(['tbl', 'Active']);
  });

  test('includeObject=Object carries the typed object, None leaves null, anything else is 400', async () => {
    const full = await table('/api/v1/namespaces/tbl/serviceaccounts?includeObject=Object');
    const bot = full.rows.find((r) => r.cells[0] === 'bot');
    expect(bot?.cells[1]).toBe(2);
    expect(bot?.object).toMatchObject({ kind: 'ServiceAccount', apiVersion: 'v1', metadata: { name: 'bot' } });
    const none = await table('/api/v1/namespaces/tbl/serviceaccounts?includeObject=None');
    expect(none.rows.every((r) => r.object === null)).toBe(true);
    const bad = await c.apiserver.request('GET', '/api/v1/namespaces/tbl/serviceaccounts?includeObject=All', { headers: { Accept: svcTable } });
    expect(bad.status).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe(`Unable to convert to Table as requested: includeObject: Invalid value: "All": must be 'Metadata', 'Object', 'None', or empty`);
  });

  test('a kind without columns gets no default override: clusterroles print Name and Created At (RFC 3339)', async () => {
    const t = await table('/apis/rbac.authorization.svc.io/v1/clusterroles/view');
    expect(t.columnDefinitions?.map((d) => [d.name, d.type])).toEqual([
      ['Name', 'string'],
      ['Created At', 'date'],
    ]);
    expect(t.rows[0].cells[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('list with limit keeps continue and remainingItemCount; the continue token pages on', async () => {
    const first = await table('/apis/certificates.svc.io/v1/certificatesigningrequests?limit=1');
    expect(first.rows).toHaveLength(1);
    expect(first.metadata.continue).toBeTruthy();
    expect(first.metadata.remainingItemCount).toBe(1);
    const second = await table(`/apis/certificates.svc.io/v1/certificatesigningrequests?limit=1&continue=${encodeURIComponent(first.metadata.continue ?? '')}`);
    expect(second.rows.map((r) => r.cells[0])).toEqual(['csr-ten']);
    expect(second.metadata.continue).toBeUndefined();
  });

  test('watch: each event is a one-row Table; only the first carries columnDefinitions', async () => {
    const events: { type: string; object: Table }[] = [];
    const req = https.request(`${c.apiserver.url}/api/v1/namespaces/tbl/serviceaccounts?watch=1`, { ...c.apiserver.adminTls(), headers: { Accept: kubectlAccept } }, (r) => {
      let buf = '';
      r.on('data', (d: Buffer) => {
        buf += d.toString();
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          events.push(JSON.parse(buf.slice(0, i)) as { type: string; object: Table });
          buf = buf.slice(i + 1);
        }
      });
    });
    req.end();
    try {
      await eventually(async () => events.length >= 1, 10_000, 'initial ADDED event');
      await ok(['create', 'sa', 'late', '-n', 'tbl']);
      await eventually(async () => events.some((e) => e.object.rows?.[0]?.cells[0] === 'late'), 10_000, 'ADDED late');
    } finally {
      req.destroy();
    }
    expect(events.every((e) => e.object.kind === 'Table' && e.object.apiVersion === 'meta.k8s.io/v1' && e.object.rows.length === 1)).toBe(true);
    expect(events[0].object.columnDefinitions?.map((d) => d.name)).toEqual(['Name', 'Secrets', 'Age']);
    expect(events.slice(1).every((e) => e.object.columnDefinitions === null)).toBe(true);
    const late = events.find((e) => e.object.rows[0].cells[0] === 'late');
    expect(late?.type).toBe('ADDED');
    expect(late?.object.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'late' } });
  });
});

/** The header line and the row starting with `first`, split on runs of 2+ spaces. */
function parse(out: string, first: string): { header: string[]; row: string[] } {
  const lines = out.trimEnd().split('\n');
  const split = (l: string): string[] => l.trim().split(/\s{2,}/);
  const row = lines.slice(1).find((l) => split(l)[0] === first);
  if (!row) throw new Error(`no row ${first} in:\n${out}`);
  return { header: split(lines[0]), row: split(row) };
}

const age = /^(\d+s|\d+m\d*s?|\d+h\d*m?)$/;

describe.each(['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'])('kubectl %s prints upstream columns', (minor) => {
  const bin = (): string => kubectlMinor(minor);

  test('get csr', async () => {
    const { header, row } = parse(await ok(['get', 'csr'], bin()), 'csr-ten');
    expect(header).toEqual(['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
    expect(row[1]).toMatch(age);
    expect(row.slice(2)).toEqual(['svc.io/svc-apiserver-client', 'admin', '10m', 'Approved']);
    expect(parse(await ok(['get', 'csr'], bin()), 'csr-plain').row.slice(2)).toEqual(['svc.io/svc-apiserver-client', 'admin', '<none>', 'Pending']);
  });

  test('get sa -o wide', async () => {
    const { header, row } = parse(await ok(['get', 'sa', '-n', 'tbl', '-o', 'wide'], bin()), 'bot');
    expect(header).toEqual(['NAME', 'SECRETS', 'AGE']);
    expect(row[1]).toBe('2');
  });

  test('get rolebindings -o wide -A', async () => {
    const { header, row } = parse(await ok(['get', 'rolebindings', '-o', 'wide', '-A'], bin()), 'tbl');
    expect(header).toEqual(['NAMESPACE', 'NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
    expect(row[1]).toBe('rb');
    expect(row[2]).toBe('ClusterRole/view');
    expect(row.slice(4)).toEqual(['alice, bob', 'devs', 'tbl/bot']);
  });

  test('get ns, get leases -A, get clusterroles, get roles', async () => {
    const ns = parse(await ok(['get', 'ns'], bin()), 'tbl');
    expect(ns.header).toEqual(['NAME', 'STATUS', 'AGE']);
    expect(ns.row[1]).toBe('Active');
    const leases = parse(await ok(['get', 'leases', '-A'], bin()), 'tbl');
    expect(leases.header).toEqual(['NAMESPACE', 'NAME', 'HOLDER', 'AGE']);
    expect(leases.row.slice(1, 3)).toEqual(['lock', 'cm-1']);
    const roles = parse(await ok(['get', 'clusterroles'], bin()), 'view');
    expect(roles.header).toEqual(['NAME', 'CREATED AT']);
    expect(roles.row[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(parse(await ok(['get', 'roles', '-n', 'tbl'], bin()), 'reader').header).toEqual(['NAME', 'CREATED AT']);
  });

  test('get --chunk-size=1 pages through Tables', async () => {
    const r = await c.apiserver.kubectl(['get', 'csr', '--chunk-size=1', '-v=6'], { binary: bin() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('continue=');
    expect(parse(r.stdout, 'csr-plain').header[0]).toBe('NAME');
    expect(parse(r.stdout, 'csr-ten').row[5]).toBe('Approved');
  });
});

test('kubectl get ns -w prints the header, then a row per change', async () => {
  const child = spawn('kubectl', [`--kubeconfig=${c.apiserver.kubeconfig}`, 'get', 'ns', '--watch', '--request-timeout=30s']);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  try {
    await eventually(async () => /\btbl\s+Active\s/.test(out), 15_000, `initial rows (got: ${out})`);
    await ok(['create', 'ns', 'watched-live']);
    await eventually(async () => /\bwatched-live\s+Active\s+\d+s/.test(out), 15_000, `kubectl --watch output (got: ${out})`);
  } finally {
    child.kill();
  }
  expect(out.split('\n')[0].trim().split(/\s+/)).toEqual(['NAME', 'STATUS', 'AGE']);
});
