// Client-side kubectl workflows (apply, diff, apply --prune) with several kubectl minors
// against the real processes. Server-side apply modes (`apply --server-side`,
// `diff --server-side`) need application/apply-patch+yaml and are not exercised here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCluster, TestCluster } from './support/apiserver';
import { kubectlMinor } from './support/kubectlBinaries';
import { b64, makeCsr } from './support/openssl';

const minors = ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'] as const;
const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';
const rbacGroup = 'rbac.authorization.svc.io';

let c: TestCluster;
let csrPem = '';
beforeAll(async () => {
  c = await startCluster();
  csrPem = makeCsr('ecdsa', '/CN=kubectl-apply').csrPem;
});
afterAll(async () => {
  await c?.stop();
});

interface Meta {
  name: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  resourceVersion: string;
}

describe.each(minors)('kubectl %s', (minor) => {
  const tag = minor.replace('.', '-');
  const ns = `apply-${tag}`;
  const run = (args: string[]) => c.apiserver.kubectl(args, { binary: kubectlMinor(minor) });
  async function ok(args: string[]): Promise<string> {
    const r = await run(args);
    if (r.code !== 0) throw new Error(`kubectl.${minor} ${args.join(' ')} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  }
  const getJSON = async <T>(args: string[]): Promise<T> => JSON.parse(await ok(['get', ...args, '-o', 'json'])) as T;
  function file(name: string, yaml: string[]): string {
    const path = join(c.dir, `${tag}-${name}.yaml`);
    writeFileSync(path, yaml.join('\n') + '\n');
    return path;
  }

  test('apply creates a Namespace and a ServiceAccount, then three-way merges the next version', async () => {
    const v1 = file('sa-v1', [
      'apiVersion: v1', 'kind: Namespace', 'metadata:', `  name: ${ns}`, '  labels: {team: a, stage: dev}', '---',
      'apiVersion: v1', 'kind: ServiceAccount', 'metadata:', '  name: bot', `  namespace: ${ns}`, '  labels: {app: x, tier: web}',
      'secrets:', '- name: s1', '- name: s2', 'imagePullSecrets:', '- name: p1', 'automountServiceAccountToken: false',
    ]);
    const created = await ok(['apply', '-f', v1]);
    expect(created).toContain(`namespace/${ns} created`);
    expect(created).toContain('serviceaccount/bot created');
    type SA = { metadata: Meta; secrets?: Array<{ name: string }>; imagePullSecrets?: Array<{ name: string }>; automountServiceAccountToken?: boolean };
    const first = await getJSON<SA>(['sa', 'bot', '-n', ns]);
    const recorded = JSON.parse(first.metadata.annotations?.[lastApplied] ?? '{}') as SA;
    expect(recorded.secrets).toEqual([{ name: 's1' }, { name: 's2' }]);
    expect(recorded.metadata.labels).toEqual({ app: 'x', tier: 'web' });

    // Changes made outside the file survive: a label and a secret nobody applied.
    await ok(['label', 'sa', 'bot', '-n', ns, 'manual=yes']);
    await ok(['patch', 'sa', 'bot', '-n', ns, '-p', '{"secrets":[{"name":"live"}]}']);

    const v2 = file('sa-v2', [
      'apiVersion: v1', 'kind: Namespace', 'metadata:', `  name: ${ns}`, '  labels: {team: b}', '---',
      'apiVersion: v1', 'kind: ServiceAccount', 'metadata:', '  name: bot', `  namespace: ${ns}`, '  labels: {app: x, extra: "1"}',
      'secrets:', '- name: s1', '- name: s3', 'imagePullSecrets:', '- name: p2',
    ]);
    const updated = await ok(['apply', '-f', v2]);
    expect(updated).toContain(`namespace/${ns} configured`);
    expect(updated).toContain('serviceaccount/bot configured');
    const sa = await getJSON<SA>(['sa', 'bot', '-n', ns]);
    expect(sa.metadata.labels).toEqual({ app: 'x', extra: '1', manual: 'yes' });
    expect((sa.secrets ?? []).map((s) => s.name).sort()).toEqual(['live', 's1', 's3']);
    expect(sa.imagePullSecrets).toEqual([{ name: 'p2' }]);
    expect(sa.automountServiceAccountToken).toBeUndefined();
    expect((JSON.parse(sa.metadata.annotations?.[lastApplied] ?? '{}') as SA).secrets).toEqual([{ name: 's1' }, { name: 's3' }]);
    const namespace = await getJSON<{ metadata: Meta }>(['ns', ns]);
    // The server's own name label survives kubectl's pruning of labels the file no longer has.
    expect(namespace.metadata.labels).toEqual({ team: 'b', 'svc.io/metadata.name': ns });

    // Re-applying: the Namespace patch is empty; the ServiceAccount's carries only
    // $setElementOrder/secrets (the foreign secret sits first), which merges to the same list,
    // so kubectl says "configured" yet the server writes nothing.
    const again = await ok(['apply', '-f', v2]);
    expect(again).toContain(`namespace/${ns} unchanged`);
    expect(again).toContain('serviceaccount/bot configured');
    expect((await getJSON<SA>(['sa', 'bot', '-n', ns])).metadata.resourceVersion).toBe(sa.metadata.resourceVersion);
  });

  test('apply updates RBAC rules, subjects and labels', async () => {
    const rbac = (verbs: string, subject: string, clusterRules: string[], label: string): string[] => [
      `apiVersion: ${rbacGroup}/v1`, 'kind: Role', 'metadata:', '  name: reader', `  namespace: ${ns}`,
      'rules:', '- apiGroups: [""]', '  resources: [serviceaccounts]', `  verbs: [${verbs}]`, '---',
      `apiVersion: ${rbacGroup}/v1`, 'kind: RoleBinding', 'metadata:', '  name: reader', `  namespace: ${ns}`,
      `roleRef: {apiGroup: ${rbacGroup}, kind: Role, name: reader}`, 'subjects:', `- {kind: ServiceAccount, name: ${subject}, namespace: ${ns}}`, '---',
      `apiVersion: ${rbacGroup}/v1`, 'kind: ClusterRole', 'metadata:', `  name: reader-${tag}`, 'rules:', ...clusterRules, '---',
      `apiVersion: ${rbacGroup}/v1`, 'kind: ClusterRoleBinding', 'metadata:', `  name: reader-${tag}`, `  labels: {${label}}`,
      `roleRef: {apiGroup: ${rbacGroup}, kind: ClusterRole, name: reader-${tag}}`, 'subjects:', `- {kind: ServiceAccount, name: bot, namespace: ${ns}}`,
    ];
    const nsRule = ['- apiGroups: [""]', '  resources: [namespaces]', '  verbs: [get]'];
    const csrRule = ['- apiGroups: [certificates.svc.io]', '  resources: [certificatesigningrequests]', '  verbs: [list]'];
    const created = await ok(['apply', '-f', file('rbac-v1', rbac('get', 'bot', [...nsRule, ...csrRule], 'a: "1", b: "2"'))]);
    expect(created).toContain(`role.${rbacGroup}/reader created`);
    expect(created).toContain(`clusterrolebinding.${rbacGroup}/reader-${tag} created`);

    const updated = await ok(['apply', '-f', file('rbac-v2', rbac('get, list, watch', 'other', nsRule, 'a: "1"'))]);
    expect(updated).toContain(`role.${rbacGroup}/reader configured`);
    expect(updated).toContain(`rolebinding.${rbacGroup}/reader configured`);
    expect(updated).toContain(`clusterrole.${rbacGroup}/reader-${tag} configured`);
    expect(updated).toContain(`clusterrolebinding.${rbacGroup}/reader-${tag} configured`);
    type Rules = { rules: Array<{ verbs: string[]; resources: string[] }> };
    expect((await getJSON<Rules>(['role', 'reader', '-n', ns])).rules).toEqual([{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['get', 'list', 'watch'] }]);
    expect((await getJSON<Rules>(['clusterrole', `reader-${tag}`])).rules).toEqual([{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }]);
    const binding = await getJSON<{ subjects: Array<{ name: string }> }>(['rolebinding', 'reader', '-n', ns]);
    expect(binding.subjects.map((s) => s.name)).toEqual(['other']);
    expect((await getJSON<{ metadata: Meta }>(['clusterrolebinding', `reader-${tag}`])).metadata.labels).toEqual({ a: '1' });
  });

  test('apply creates a CSR and adds and removes its labels; a changed spec is kept as stored, as upstream', async () => {
    const csr = (labels: string, usages = 'client auth'): string =>
      file(`csr-${labels.length}`, [
        'apiVersion: certificates.svc.io/v1', 'kind: CertificateSigningRequest', 'metadata:', `  name: apply-${tag}`, `  labels: {${labels}}`,
        'spec:', `  request: ${b64(csrPem)}`, '  signerName: svc.io/svc-apiserver-client', `  usages: [${usages}]`,
      ]);
    expect(await ok(['apply', '-f', csr('keep: "y", drop: "y"')])).toContain(`certificatesigningrequest.certificates.svc.io/apply-${tag} created`);
    // The CSR strategy keeps the stored spec on update (upstream's PrepareForUpdate), so the
    // changed usages are dropped while the labels and the last-applied annotation change.
    expect(await ok(['apply', '-f', csr('keep: "y", added: "y"', 'client auth, digital signature')])).toContain(`certificatesigningrequest.certificates.svc.io/apply-${tag} configured`);
    const got = await getJSON<{ metadata: Meta; spec: { usages: string[]; username: string } }>(['csr', `apply-${tag}`]);
    expect(got.metadata.labels).toEqual({ keep: 'y', added: 'y' });
    expect(got.spec.usages).toEqual(['client auth']);
    expect(got.spec.username).toBe('admin');
  });

  test('diff (client-side mode) shows a dry-run create and a dry-run strategic merge patch, and writes nothing', async () => {
    const base = ['apiVersion: v1', 'kind: ServiceAccount', 'metadata:', `  namespace: ${ns}`];
    const fresh = await run(['diff', '-f', file('diff-new', [...base, '  name: not-yet'])]);
    expect(fresh.code).toBe(1);
    expect(fresh.stdout).toMatch(/^\+ {2}name: not-yet$/m);
    expect((await run(['get', 'sa', 'not-yet', '-n', ns])).code).not.toBe(0);

    await ok(['apply', '-f', file('diff-v1', [...base, '  name: differ', '  labels: {a: "1"}', 'secrets: [{name: s1}, {name: s2}]'])]);
    const before = await getJSON<{ metadata: Meta }>(['sa', 'differ', '-n', ns]);
    const changed = await run(['diff', '-f', file('diff-v2', [...base, '  name: differ', '  labels: {b: "2"}', 'secrets: [{name: s1}]'])]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/^- {4}a: "1"$/m);
    expect(changed.stdout).toMatch(/^\+ {4}b: "2"$/m);
    expect(changed.stdout).toMatch(/^-- name: s2$/m);
    const same = await run(['diff', '-f', file('diff-same', [...base, '  name: differ', '  labels: {a: "1"}', 'secrets: [{name: s1}, {name: s2}]'])]);
    expect(same).toMatchObject({ code: 0, stdout: '' });
    expect((await getJSON<{ metadata: Meta }>(['sa', 'differ', '-n', ns])).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  test('apply --prune -l deletes the labelled objects no longer in the files (with an allowlist of served kinds)', async () => {
    const sel = `app=prune-${tag}`;
    const sa = (name: string): string[] => ['apiVersion: v1', 'kind: ServiceAccount', 'metadata:', `  name: ${name}`, `  namespace: ${ns}`, `  labels: {app: prune-${tag}}`];
    const role = [`apiVersion: ${rbacGroup}/v1`, 'kind: Role', 'metadata:', '  name: pruned', `  namespace: ${ns}`, `  labels: {app: prune-${tag}}`, 'rules: []'];
    const namespace = ['apiVersion: v1', 'kind: Namespace', 'metadata:', `  name: pruned-${tag}`, `  labels: {app: prune-${tag}}`];
    const allow = ['--prune-allowlist=core/v1/ServiceAccount', `--prune-allowlist=${rbacGroup}/v1/Role`, '--prune-allowlist=core/v1/Namespace'];
    const all = file('prune-all', [...sa('pa'), '---', ...sa('pb'), '---', ...role, '---', ...namespace]);
    const created = await ok(['apply', '--prune', '-l', sel, ...allow, '-f', all]);
    expect(created).toContain('serviceaccount/pb created');
    expect(created).toContain(`role.${rbacGroup}/pruned created`);

    // The default allowlist names kinds this server does not serve (ConfigMap is served; Endpoints is next).
    const defaults = await run(['apply', '--prune', '-l', sel, '-f', all]);
    expect(defaults.code).not.toBe(0);
    expect(defaults.stderr).toContain('no matches for kind "Endpoints" in version "v1"');

    const pruned = await ok(['apply', '--prune', '-l', sel, ...allow, '-f', file('prune-one', sa('pa'))]);
    expect(pruned).toContain('serviceaccount/pa unchanged');
    expect(pruned).toContain('serviceaccount/pb pruned');
    expect(pruned).toContain(`role.${rbacGroup}/pruned pruned`);
    expect(pruned).toContain(`namespace/pruned-${tag} pruned`);
    expect(await ok(['get', 'sa,role', '-n', ns, '-l', sel, '-o', 'name'])).toBe('serviceaccount/pa\n');
    // Without the namespace controller here the namespace stays Terminating.
    const gone = await run(['get', 'ns', `pruned-${tag}`, '-o', 'jsonpath={.metadata.deletionTimestamp}']);
    expect(gone.code === 0 ? gone.stdout : 'deleted').not.toBe('');
  });
});
