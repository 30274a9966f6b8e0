// A seeded barrage of malformed requests against one running server: bodies, headers, paths,
// queries and patches generated from the schemas in lib/api and the served routes. Every request
// must be answered in time, never with a 5xx, and failures from API URLs must be Status objects.
// Afterwards the server is alive and ready, and the objects made before are unchanged.
// Replay a failure with FUZZ_SEED=<seed> (the seed is printed with every failure).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiVersionOf, groups, ResourceInfo, signerNames } from '../../lib/api';
import { builtinStrategies } from '../../lib/registry/builtin';
import { startCluster, TestCluster } from './support/apiserver';
import { Barrage, BarrageResult } from './support/fuzz/barrage';
import {
  deepNestingCases,
  emptyBodyCases,
  encodingCases,
  garbageJsonCases,
  hugeNumberCases,
  oversizeCases,
  protobufCases,
  wrongKindCases,
  wrongTypeCases,
  yamlBombCases,
} from './support/fuzz/bodyCases';
import type { FuzzCase, Identity } from './support/fuzz/fuzzCase';
import { createOnlyCases, createOnlyTargets, CreateOnlyTarget } from './support/fuzz/createOnlyCases';
import { acceptCases, authorizationCases, contentTypeCases, framingCases, repeatedAndLongHeaderCases } from './support/fuzz/headerCases';
import { jsonPatchCases, mergePatchCases, patchGarbageCases } from './support/fuzz/patchCases';
import { fuzzSeed, Prng } from './support/fuzz/prng';
import { deleteBodyCases, nameCases, pathTrickCases, queryCases, unknownRouteCases, verbShapeCases } from './support/fuzz/routeCases';
import { FuzzTarget, fuzzTarget, gvPrefix } from './support/fuzz/targets';
import { clusterSend, writeBodyCases } from './support/fuzz/writeBodyCases';
import { createTargets } from '../../lib/apiserver/testing/fuzz/fuzzRun';
import { patchTargets, type PatchTarget } from '../../lib/apiserver/testing/fuzz/patchTargets';
import { b64, makeCsr } from './support/openssl';

const maxRequestBytes = 64 * 1024;
const namespace = 'fz';
const seed = fuzzSeed();
const replay = `seed ${seed} (replay: FUZZ_SEED=${seed} npx jest test/e2e/fuzz.test.ts --selectProjects e2e)`;

let c: TestCluster;
let targets: FuzzTarget[];
let createOnly: CreateOnlyTarget[];
/** The in-process write-body fuzz's objects (lib/apiserver/writeBodyFuzz.test.ts), for its sample here. */
let writeTargets: PatchTarget[];
/** Kinds left out because no valid object could be made from kindExtras(). */
const skipped: string[] = [];
/** GET of every object made before the barrage: path → JSON text. */
const before = new Map<string, string>();

/** Fields a valid object of a kind needs beyond metadata (kinds without an entry need none). */
function kindExtras(): Record<string, (name: string) => Record<string, unknown>> {
  const csr = b64(makeCsr('ecdsa', '/CN=fuzz/O=fuzzers').csrPem);
  const roleRef = { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'fuzz-nonexistent-role' };
  return {
    CertificateSigningRequest: () => ({
      spec: { request: csr, signerName: signerNames.apiserverClient, usages: ['digital signature', 'key encipherment', 'client auth'] },
    }),
    RoleBinding: () => ({ roleRef }),
    ClusterRoleBinding: () => ({ roleRef }),
    // A policy that never matches anything the barrage sends (no resource is called this).
    ValidatingAdmissionPolicy: () => ({
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: ['fuzz.example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['nothings'] }] },
        validations: [{ expression: 'true' }],
      },
    }),
    ValidatingAdmissionPolicyBinding: () => ({ spec: { policyName: 'fuzz-nonexistent-policy', validationActions: ['Deny'] } }),
  };
}

/** Kinds the running server serves with the verbs a sentinel needs. */
async function servedKinds(): Promise<ResourceInfo[]> {
  const out: ResourceInfo[] = [];
  for (const { resource: info } of builtinStrategies) {
    const r = await c.apiserver.request('GET', gvPrefix(info));
    if (r.status !== 200) continue;
    const names = r.json<{ resources: { name: string }[] }>().resources.map((x) => x.name);
    if (!names.includes(info.resource)) continue;
    if (['create', 'get', 'update', 'patch', 'delete'].every((v) => info.verbs.includes(v))) out.push(info);
  }
  return out;
}

async function snapshot(path: string): Promise<string> {
  const r = await c.apiserver.request('GET', path);
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.body}`);
  return r.body;
}

/** Creates the sentinel and victims; the reason when the kind's template is not a valid object. */
async function createAll(t: FuzzTarget): Promise<string | undefined> {
  const roles: [string, 'sentinel' | 'victim'][] = [[t.sentinel, 'sentinel'], ...t.victims.map((v): [string, 'victim'] => [v, 'victim'])];
  for (const [name, role] of roles) {
    const r = await c.apiserver.request('POST', t.collection, { body: t.template(name, role) });
    if (r.status !== 201) return `creating ${t.info.kind} ${name}: ${r.status} ${r.body.slice(0, 300)}`;
  }
  return undefined;
}

beforeAll(async () => {
  c = await startCluster([`--max-request-bytes=${maxRequestBytes}`]);
  const ns = await c.apiserver.request('POST', '/api/v1/namespaces', { body: { metadata: { name: namespace } } });
  if (ns.status !== 201) throw new Error(`creating namespace ${namespace}: ${ns.status} ${ns.body}`);
  const extras = kindExtras();
  targets = [];
  for (const info of await servedKinds()) {
    const t = fuzzTarget(info, { namespace, sentinel: `${info.singular}-keep`, victims: 4, extra: extras[info.kind] });
    // A kind added since this test was written may need fields kindExtras() does not know: say so, fuzz the rest.
    const why = await createAll(t);
    if (why) skipped.push(why);
    else targets.push(t);
  }
  for (const p of [`/api/v1/namespaces/${namespace}`, ...targets.map((t) => t.item(t.sentinel))]) before.set(p, await snapshot(p));
  writeTargets = patchTargets();
  await createTargets(clusterSend(c), writeTargets);
  // Create-only endpoints the server serves (a POST of an empty body does not answer 404 or 405).
  const parents = new Map(targets.map((t) => [t.info.resource, t.sentinel]));
  createOnly = [];
  for (const t of createOnlyTargets(namespace, (info) => parents.get(info.resource))) {
    const r = await c.apiserver.request('POST', t.path, { body: '{}' });
    if (r.status !== 404 && r.status !== 405) createOnly.push(t);
  }
}, 60_000);

afterAll(async () => {
  await c?.stop();
});

/** All families, shuffled, with a share sent anonymously or with a garbage bearer token. */
function generate(rng: Prng): FuzzCase[] {
  const cases = [
    ...wrongTypeCases(rng, targets, 3),
    ...garbageJsonCases(rng, targets, 60),
    ...yamlBombCases(targets),
    ...deepNestingCases(rng, targets),
    ...hugeNumberCases(rng, targets),
    ...encodingCases(rng, targets),
    ...protobufCases(rng, targets),
    ...wrongKindCases(rng, targets),
    ...emptyBodyCases(targets),
    ...oversizeCases(rng, targets, maxRequestBytes),
    ...contentTypeCases(rng, targets),
    ...acceptCases(rng, targets),
    ...authorizationCases(rng, targets),
    ...repeatedAndLongHeaderCases(rng, targets),
    ...framingCases(rng, targets),
    ...verbShapeCases(rng, targets),
    ...pathTrickCases(rng, targets),
    ...nameCases(rng, targets),
    ...unknownRouteCases(rng, targets),
    ...queryCases(rng, targets),
    ...deleteBodyCases(rng, targets),
    ...patchGarbageCases(rng, targets),
    ...jsonPatchCases(rng, targets),
    ...mergePatchCases(rng, targets),
    ...createOnlyCases(rng, createOnly, maxRequestBytes),
    ...writeBodyCases(rng, writeTargets, 60),
  ];
  const identities: Identity[] = ['admin', 'admin', 'admin', 'admin', 'admin', 'admin', 'anonymous', 'bearer'];
  for (const k of cases) k.identity ??= rng.pick(identities);
  return rng.sample(cases, cases.length);
}

function summarize(r: BarrageResult, ms: number): string {
  const codes = Object.entries(r.statusCounts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
  const slow = r.slowest.map((s) => `  ${s.ms} ms ${s.name.slice(0, 140)}`).join('\n');
  return `fuzz ${replay}: ${r.sent} requests in ${ms} ms\nstatus codes: ${codes}\nslowest:\n${slow}`;
}

describe('fuzz: malformed requests', () => {
  let result: BarrageResult;

  test('every request is answered in time, never with a 5xx, and API failures are Status objects', async () => {
    expect(targets.map((t) => t.info.kind)).toEqual(expect.arrayContaining(['Namespace', 'ServiceAccount', 'ConfigMap', 'CertificateSigningRequest']));
    expect(createOnly.length).toBeGreaterThan(0);
    const cases = generate(new Prng(seed));
    expect(cases.length).toBeGreaterThanOrEqual(1200);
    const barrage = new Barrage(
      { host: '127.0.0.1', port: c.apiserver.port, ca: c.apiserver.caPem, admin: adminCredentials() },
      { concurrency: 16, timeoutMs: 15_000 },
    );
    const started = Date.now();
    try {
      result = await barrage.run(cases);
    } finally {
      barrage.close();
    }
    console.log(summarize(result, Date.now() - started) + `\ncreate-only endpoints: ${createOnly.map((t) => t.path).join(' ')}` + (skipped.length ? `\nkinds not fuzzed (add them to kindExtras):\n  ${skipped.join('\n  ')}` : ''));
    // Everything, for digging into a failing run.
    if (process.env.FUZZ_FAILURES_FILE) writeFileSync(process.env.FUZZ_FAILURES_FILE, `${result.failures.join('\n')}\n--- server log ---\n${c.apiserver.logs}`);
    const shown = result.failures.slice(0, 40);
    if (result.failures.length > shown.length) shown.push(`… and ${result.failures.length - shown.length} more`);
    expect({ seed: replay, failures: shown }).toEqual({ seed: replay, failures: [] });
  }, 120_000);

  test('the server is still alive and ready, and logged no internal error', async () => {
    expect(result).toBeDefined();
    const ready = await c.apiserver.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    // A 5xx from an unexpected exception is logged as "internal error" by the dispatcher. A client
    // that hangs up mid-body ("aborted") is logged so too, though nobody is left to answer.
    const internal = c.apiserver.logs
      .split('\n')
      .filter((l) => l.includes('"internal error"') && !l.includes('"message":"aborted"'));
    expect({ seed: replay, internal: internal.slice(0, 5) }).toEqual({ seed: replay, internal: [] });
  });

  test('objects created before the barrage are unchanged', async () => {
    expect(result).toBeDefined();
    for (const [path, text] of before) {
      const now = await c.apiserver.request('GET', path);
      expect({ seed: replay, path, status: now.status }).toEqual({ seed: replay, path, status: 200 });
      expect(JSON.parse(now.body)).toEqual(JSON.parse(text));
    }
    // Every kind still lists, and the list holds the sentinel.
    for (const t of targets) {
      const list = await c.apiserver.request('GET', t.collection);
      expect(list.status).toBe(200);
      const names = list.json<{ items: { metadata: { name: string } }[] }>().items.map((i) => i.metadata.name);
      expect(names).toContain(t.sentinel);
      expect(list.json<{ apiVersion: string }>().apiVersion).toBe(apiVersionOf(t.info));
    }
  });
});

/** The admin client certificate the cluster helper generated. */
function adminCredentials(): { cert: string; key: string } {
  const pki = join(c.dir, 'pki');
  return { cert: readFileSync(join(pki, 'admin.crt'), 'utf8'), key: readFileSync(join(pki, 'admin.key'), 'utf8') };
}
