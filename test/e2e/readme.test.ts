// What the README tells a newcomer, checked against the code and the running server: its
// `--help` commands work as written and open with what is served (the registered resources and
// controllers, not a list kept by hand); its table of what is not served names nothing a server
// serves, with every API version on, and quotes kubectl's words for it; and what it says of
// kubectl 1.27's `auth whoami` is what kubectl 1.27 does against both naming profiles.
import { exec, execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as https from 'node:https';
import { join } from 'node:path';
import { apiVersionOf } from '../../lib/api';
import { defaultResourceConfig, isServed } from '../../lib/apiserver/resourceConfig';
import { registeredResources } from '../../cmd/apiserver/main';
import { knownControllers } from '../../cmd/controller-manager/options';
import { startTestServer, type TestServer } from '../../cmd/testServer';
import { repoRoot } from './support/apiserver';
import { kubectlMinor } from './support/kubectlBinaries';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command line as a reader types it, from the repository's root. */
function shell(command: string): Promise<Result> {
  return new Promise((resolve) => {
    exec(command, { cwd: repoRoot, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

function kubectl(binary: string, server: TestServer, args: string[], cacheDir: string): Promise<Result> {
  return new Promise((resolve) => {
    execFile(binary, [`--kubeconfig=${server.kubeconfigPath}`, `--cache-dir=${cacheDir}`, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

function getJson(server: TestServer, path: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    https
      .get(`${server.url}${path}`, { ca: server.ca, ...server.adminCert, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>));
      })
      .on('error', reject);
  });
}

/** The lines of a `## title` section, up to the next section. */
function section(title: string): string[] {
  const lines = readme.split('\n');
  const start = lines.indexOf(`## ${title}`);
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

describe('--help as the README writes it', () => {
  const commands = [...readme.matchAll(/`([^`]*svc-(?:apiserver|controller-manager)[^`]* --help)`/g)].map((m) => m[1]);

  test('the README names a --help command for both programs', () => {
    expect(commands.some((c) => c.includes('svc-apiserver'))).toBe(true);
    expect(commands.some((c) => c.includes('svc-controller-manager'))).toBe(true);
  });

  test.each([...new Set(commands)])('`%s` runs from the clone and opens with what is served', async (command) => {
    const r = await shell(command);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [first, second] = r.stdout.split('\n');
    if (command.includes('svc-controller-manager')) {
      for (const name of knownControllers) expect(first).toMatch(new RegExp(`\\b${name}\\b`));
      return;
    }
    const registered = registeredResources();
    const defaults = defaultResourceConfig(registered);
    for (const r of registered.filter((x) => isServed(defaults, x))) expect(first).toMatch(new RegExp(`\\b${r.kind}\\b`));
    const off = registered.filter((x) => !isServed(defaults, x)).map(apiVersionOf);
    expect(off.length).toBeGreaterThan(0);
    for (const gv of off) {
      expect(first).not.toContain(gv);
      expect(second).toContain(gv);
    }
  });
});

describe('what the README says is not served', () => {
  const rows = section('What it does not serve').filter((l) => l.startsWith('|') && !l.startsWith('|---'));
  // Resource names are in backticks in parentheses in the first column: (`pods`, `deployments`).
  const names = rows
    .slice(1)
    .flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/\(([^)]*)\)/g)])
    .flatMap((group) => [...group[1].matchAll(/`([a-z]+)`/g)].map((m) => m[1]));
  let servers: TestServer[] = [];
  beforeAll(async () => {
    // Every registered API version on, in both spellings.
    servers = await Promise.all([startTestServer({ runtimeConfig: { 'api/all': true } }), startTestServer({ naming: 'k8s', runtimeConfig: { 'api/all': true } })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  /** Every name discovery gives a resource: plural (and subresource), singular, kind, short names. */
  async function servedNames(server: TestServer): Promise<Set<string>> {
    const versions = ['/api/v1'];
    const groups = (await getJson(server, '/apis')) as { groups: { versions: { groupVersion: string }[] }[] };
    for (const g of groups.groups) for (const v of g.versions) versions.push(`/apis/${v.groupVersion}`);
    const names = new Set<string>();
    for (const path of versions) {
      const list = (await getJson(server, path)) as { resources: { name: string; singularName?: string; kind: string; shortNames?: string[] }[] };
      for (const r of list.resources) {
        for (const n of [r.name, ...r.name.split('/'), r.singularName, r.kind.toLowerCase(), ...(r.shortNames ?? [])]) if (n) names.add(n.toLowerCase());
      }
    }
    return names;
  }

  test('the table names at least the workloads, Secrets, Events and admission webhooks', () => {
    for (const n of ['pods', 'deployments', 'secrets', 'events', 'validatingwebhookconfigurations']) expect(names).toContain(n);
  });

  test('none of its names is a resource either naming profile serves', async () => {
    for (const server of servers) {
      const served = await servedNames(server);
      expect(served.has('serviceaccounts')).toBe(true);
      expect(names.filter((n) => served.has(n))).toEqual([]);
    }
  });

  test('kubectl says of `kubectl get pods` what the README quotes', async () => {
    const quoted = /`kubectl get pods` answers `([^`]+)`/.exec(section('What it does not serve').join(' '));
    expect(quoted).not.toBeNull();
    const r = await kubectl('kubectl', servers[0], ['get', 'pods'], join(servers[0].kubeconfigPath, '..', 'kube-cache'));
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe(quoted![1]);
  });
});

describe("kubectl 1.27's auth whoami", () => {
  const enableBeta = 'authentication.k8s.io/v1beta1';

  test('the README says it needs --runtime-config=authentication.k8s.io/v1beta1=true wherever it mentions it with 1.27', () => {
    const paragraphs = readme.split(/\n\s*\n/).filter((p) => p.includes('auth whoami') && /1\.27/.test(p));
    expect(paragraphs.length).toBeGreaterThan(0);
    for (const p of paragraphs) expect(p).toContain(`--runtime-config=${enableBeta}=true`);
  });

  test.each([
    ['k8s', {}, 'fails'],
    ['k8s', { [enableBeta]: true }, 'works'],
    ['svc', { 'authentication.svc.io/v1beta1': true }, 'fails'],
  ] as const)('against the %s profile with --runtime-config %j it %s', async (naming, runtimeConfig, outcome) => {
    const works = outcome === 'works';
    const server = await startTestServer({ naming, runtimeConfig });
    try {
      const r = await kubectl(kubectlMinor('1.27'), server, ['auth', 'whoami'], join(server.kubeconfigPath, '..', 'kube-cache'));
      if (works) expect(r.stdout).toMatch(/Username\s+admin/);
      // kubectl 1.27 asks for v1beta1, then v1alpha1, and words two 404s so (kubectl/pkg/cmd/auth/whoami.go).
      else expect(r.stderr).toContain('the selfsubjectreviews API is not enabled in the cluster');
      expect(r.code === 0).toBe(works);
    } finally {
      await server.stop();
    }
  });
});

describe('the CRD walk-through', () => {
  /** The sh block after the walk-through's marker comment. */
  const block = (() => {
    const at = readme.indexOf('<!-- readme-crd-walkthrough');
    const start = readme.indexOf('```sh\n', at) + '```sh\n'.length;
    return readme.slice(start, readme.indexOf('\n```', start));
  })();

  test('runs as written against a server: columns, defaults, explain, apply, /status, /scale, validation, deletion', async () => {
    expect(block).toContain('kubectl apply -f - <<');
    const server = await startTestServer();
    try {
      const dir = join(server.kubeconfigPath, '..');
      const r = await new Promise<Result>((resolve) => {
        execFile('bash', ['-e', '-o', 'pipefail', '-c', block], { env: { ...process.env, KUBECONFIG: server.kubeconfigPath, HOME: dir }, timeout: 120_000 }, (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
        );
      });
      expect({ code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ code: 0, stderr: '' });
      expect(r.stdout).toContain('customresourcedefinition.apiextensions.svc.io/widgets.example.com condition met');
      expect(r.stdout).toMatch(/NAME\s+SIZE\s+COLOR\nw1\s+3\s+red\n/);
      expect(r.stdout).toContain('How many parts.');
      expect(r.stdout).toContain('widget.example.com/w1 serverside-applied');
      expect(r.stdout).toContain('widget.example.com/w1 scaled');
      expect(r.stdout).toContain('6 4 3\n');
      expect(r.stderr).toContain('The Widget "bad" is invalid: spec.size: Invalid value: 30: spec.size in body should be less than or equal to 10');
      expect(r.stdout).toContain('customresourcedefinition.apiextensions.svc.io "widgets.example.com" deleted');
    } finally {
      await server.stop();
    }
  });
});
