// Every installed kubectl minor (kubectl.1.27 … kubectl.1.33 and the default kubectl) against the
// k8s naming profile, unmodified: the commands that hard-code upstream's group names (certificate
// approve/deny, auth can-i/whoami, create token/role/…) and get with upstream's columns. The svc
// profile keeps its own spelling: the same typed commands fail there, as documented.
import { join } from 'node:path';
import { startCluster, TestCluster } from './support/apiserver';
import { kubectlMinor } from './support/kubectlBinaries';
import { b64, makeCsr } from './support/openssl';

const minors = ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'];

function csrManifest(name: string): string {
  const request = b64(makeCsr('ecdsa', `/CN=${name}`).csrPem);
  return JSON.stringify({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request, signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] },
  });
}

describe('kubectl minors, k8s naming', () => {
  let c: TestCluster;
  beforeAll(async () => {
    // kubectl 1.27's auth whoami asks only for the beta SelfSubjectReview, off by default as upstream's.
    c = await startCluster(['--api-naming=k8s', '--runtime-config=authentication.k8s.io/v1beta1=true']);
  });
  afterAll(async () => {
    await c?.stop();
  });

  describe.each([...minors, 'default'])('kubectl %s', (minor) => {
    const id = minor.replace('.', '-');
    const ns = `ns-${id}`;
    // Each binary keeps its own discovery cache, in the test's directory.
    const kubectl = async (args: string[], input?: string): Promise<string> => {
      const binary = minor === 'default' ? 'kubectl' : kubectlMinor(minor);
      const r = await c.apiserver.kubectl([`--cache-dir=${join(c.dir, `kube-cache-${id}`)}`, ...args], { binary, input });
      if (r.code !== 0) throw new Error(`kubectl ${minor} ${args.join(' ')} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
      return r.stdout;
    };

    test('create namespace, configmap, serviceaccount and token', async () => {
      expect(await kubectl(['create', 'namespace', ns])).toContain(`namespace/${ns} created`);
      expect(await kubectl(['create', 'configmap', 'settings', '--from-literal=a=b', '-n', ns])).toContain('configmap/settings created');
      expect(await kubectl(['create', 'serviceaccount', 'bot', '-n', ns])).toContain('serviceaccount/bot created');
      const token = (await kubectl(['create', 'token', 'bot', '-n', ns])).trim();
      expect(token.split('.')).toHaveLength(3);
    });

    test('create role, rolebinding, clusterrole, clusterrolebinding', async () => {
      expect(await kubectl(['create', 'role', 'reader', '--verb=get,list', '--resource=configmaps', '-n', ns])).toContain('role.rbac.authorization.k8s.io/reader created');
      expect(await kubectl(['create', 'rolebinding', 'reader', '--role=reader', `--serviceaccount=${ns}:bot`, '-n', ns])).toContain(
        'rolebinding.rbac.authorization.k8s.io/reader created',
      );
      expect(await kubectl(['create', 'clusterrole', `lease-reader-${id}`, '--verb=get', '--resource=leases'])).toContain(
        `clusterrole.rbac.authorization.k8s.io/lease-reader-${id} created`,
      );
      expect(await kubectl(['create', 'clusterrolebinding', `lease-reader-${id}`, `--clusterrole=lease-reader-${id}`, '--user=carol'])).toContain(
        `clusterrolebinding.rbac.authorization.k8s.io/lease-reader-${id} created`,
      );
    });

    test('auth can-i (one check and --list) and auth whoami', async () => {
      expect((await kubectl(['auth', 'can-i', 'create', 'serviceaccounts', '-n', ns])).trim()).toBe('yes');
      expect(await kubectl(['auth', 'can-i', '--list', '-n', ns])).toMatch(/\*\.\*\s+\[\]\s+\[\]\s+\[\*\]/);
      expect(await kubectl(['auth', 'whoami'])).toMatch(/Username\s+admin/);
    });

    test('certificate approve and deny', async () => {
      for (const name of [`approve-${id}`, `deny-${id}`]) {
        expect(await kubectl(['create', '-f', '-'], csrManifest(name))).toContain(`certificatesigningrequest.certificates.k8s.io/${name} created`);
      }
      expect(await kubectl(['certificate', 'approve', `approve-${id}`])).toContain(`certificatesigningrequest.certificates.k8s.io/approve-${id} approved`);
      expect(await kubectl(['certificate', 'deny', `deny-${id}`])).toContain(`certificatesigningrequest.certificates.k8s.io/deny-${id} denied`);
      const table = await kubectl(['get', 'csr', `approve-${id}`, `deny-${id}`]);
      expect(table).toMatch(/^NAME\s+AGE\s+SIGNERNAME\s+REQUESTOR\s+REQUESTEDDURATION\s+CONDITION\n/);
      expect(table).toMatch(new RegExp(`approve-${id}\\s+\\S+\\s+kubernetes.io/kube-apiserver-client\\s+admin\\s+<none>\\s+Approved\\n`));
      expect(table).toMatch(new RegExp(`deny-${id}\\s+\\S+\\s+kubernetes.io/kube-apiserver-client\\s+admin\\s+<none>\\s+Denied\\n`));
    });

    test('a lookup of a resource not served revalidates the discovery cache and later lookups still work', async () => {
      const binary = minor === 'default' ? 'kubectl' : kubectlMinor(minor);
      const r = await c.apiserver.kubectl([`--cache-dir=${join(c.dir, `kube-cache-${id}`)}`, 'get', 'pods', '-n', ns], { binary });
      expect(r.stderr).toContain('the server doesn\'t have a resource type "pods"');
      expect(await kubectl(['get', 'cm', '-n', ns])).toMatch(/^NAME\s+DATA\s+AGE\n/);
    });

    test('get shows upstream columns', async () => {
      expect(await kubectl(['get', 'namespace', ns])).toMatch(new RegExp(`^NAME\\s+STATUS\\s+AGE\\n${ns}\\s+Active\\s+`));
      expect(await kubectl(['get', 'configmaps', 'settings', '-n', ns])).toMatch(/^NAME\s+DATA\s+AGE\nsettings\s+1\s+/);
      expect(await kubectl(['get', 'serviceaccounts', 'bot', '-n', ns])).toMatch(/^NAME\s+SECRETS\s+AGE\nbot\s+0\s+/);
      expect(await kubectl(['get', 'rolebindings', 'reader', '-n', ns, '-o', 'wide'])).toMatch(
        new RegExp(`^NAME\\s+ROLE\\s+AGE\\s+USERS\\s+GROUPS\\s+SERVICEACCOUNTS\\nreader\\s+Role/reader\\s+\\S+\\s+${ns}/bot\\n`),
      );
      expect(await kubectl(['get', 'clusterrolebindings', `lease-reader-${id}`, '-o', 'wide'])).toMatch(
        new RegExp(`^NAME\\s+ROLE\\s+AGE\\s+USERS\\s+GROUPS\\s+SERVICEACCOUNTS\\nlease-reader-${id}\\s+ClusterRole/lease-reader-${id}\\s+\\S+\\s+carol\\s*\\n`),
      );
      expect(await kubectl(['get', 'clusterroles', `lease-reader-${id}`])).toMatch(new RegExp(`^NAME\\s+CREATED AT\\nlease-reader-${id}\\s+\\d{4}-`));
    });
  });
});

describe('kubectl, svc naming', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startCluster();
  });
  afterAll(async () => {
    await c?.stop();
  });

  const run = (args: string[], input?: string) => c.apiserver.kubectl([`--cache-dir=${join(c.dir, 'kube-cache')}`, ...args], { input });

  test('the upstream-named commands fail: svc data is never served under k8s names', async () => {
    const canI = await run(['auth', 'can-i', 'create', 'serviceaccounts']);
    expect(canI.code).not.toBe(0);
    expect(canI.stderr).toMatch(/selfsubjectaccessreviews|not found|NotFound/i);
    expect((await c.apiserver.request('GET', '/apis/certificates.k8s.io/v1')).status).toBe(404);
    const approve = await run(['certificate', 'approve', 'anything']);
    expect(approve.code).not.toBe(0);
  });
});
