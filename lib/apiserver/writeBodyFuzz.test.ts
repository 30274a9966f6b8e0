// Issue 26 item 4: no JavaScript error reaches a client from a malformed write body. Seeded
// mutations of valid bodies (lib/apiserver/testing/fuzz) for every patch type — JSON Patch,
// JSON merge patch, strategic merge patch, server-side apply as YAML and JSON text
// (application/apply-patch+yaml) and as CBOR — and for PUT and POST, sent in-process through
// the whole handler path (express, dispatch, handlers, registry over a memory store). Every
// answer must be free of JavaScript's error text, and a 500 only where upstream answers 500
// too (leakJudge.ts lists them). Replay a failure with FUZZ_SEED=<seed>.
import { MemoryStorage } from '../etcd/memory';
import { builtinStrategies } from '../registry/builtin';
import { createStores } from '../registry/stores';
import { createTargets, describeFinding, fuzzRun, type FuzzRunResult } from './testing/fuzz/fuzzRun';
import { upstreamInternalErrors } from './testing/fuzz/leakJudge';
import { patchTargets, type PatchTarget } from './testing/fuzz/patchTargets';
import { fuzzSeed } from './testing/fuzz/prng';
import type { BodyType } from './testing/fuzz/writeRequests';
import { startInProcessServer, type InProcessServer } from './testing/inProcessServer';

const seed = fuzzSeed();
const replay = `seed ${seed} (replay: FUZZ_SEED=${seed} npx jest lib/apiserver/writeBodyFuzz.test.ts)`;

/** ≥ 5,000 bodies per patch content type; apply-patch+yaml carries YAML and JSON text alike. */
const counts: Record<BodyType, number> = {
  'json-patch': 5000,
  'merge-patch': 5000,
  'strategic-merge-patch': 5000,
  'apply-yaml': 2500,
  'apply-json': 2500,
  'apply-cbor': 5000,
  update: 1000,
  create: 1000,
};

let storage: MemoryStorage;
let server: InProcessServer;
let targets: PatchTarget[];
let result: FuzzRunResult;

beforeAll(async () => {
  // CBOR apply is served with its gate only; the other bodies take the same path either way.
  storage = new MemoryStorage();
  server = startInProcessServer(createStores(storage, builtinStrategies, '/registry', { watchCache: false }), { featureGates: 'CBORServingAndStorage=true' });
  targets = patchTargets();
  await createTargets(server.request, targets);
  result = await fuzzRun(server.request, targets, counts, seed);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await storage?.close();
});

test('the kinds the brief names are under fuzz, with their writable subresources', () => {
  const endpoints = targets.map((t) => `${t.info.kind}${t.subresource ? `/${t.subresource}` : ''}`);
  expect(endpoints).toEqual(
    expect.arrayContaining([
      'ConfigMap',
      'ServiceAccount',
      'Namespace',
      'CertificateSigningRequest',
      'CertificateSigningRequest/status',
      'CertificateSigningRequest/approval',
      'Role',
      'ClusterRole',
      'Lease',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicy/status',
    ]),
  );
});

test('no answer carries JavaScript error text or a 500 upstream would not give', () => {
  const shown = result.findings.slice(0, 40).map(describeFinding);
  if (result.findings.length > shown.length) shown.push(`… and ${result.findings.length - shown.length} more`);
  expect({ seed: replay, findings: shown }).toEqual({ seed: replay, findings: [] });
});

test('the run reached every outcome: successes, client errors, conflicts and the upstream 500s', () => {
  const { statusCounts, sent } = result;
  expect(sent).toBe(Object.values(counts).reduce((a, b) => a + b, 0));
  // A fuzz whose bodies all fail at the first check would prove little.
  for (const status of ['200', '201', '400', '409', '422', '500 (as upstream)']) {
    expect({ status, seen: (statusCounts[status] ?? 0) > 0 }).toEqual({ status, seen: true });
  }
  expect(upstreamInternalErrors.length).toBeGreaterThan(0);
});
