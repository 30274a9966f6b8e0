// The in-process write-body fuzz (lib/apiserver/writeBodyFuzz.test.ts) in a small sample over
// real HTTPS: the same generators and targets, sent by the barrage to the real binary on etcd.
import type { Send } from '../../../../lib/apiserver/testing/fuzz/fuzzRun';
import type { PatchTarget } from '../../../../lib/apiserver/testing/fuzz/patchTargets';
import type { Prng } from '../../../../lib/apiserver/testing/fuzz/prng';
import { bodyTypes, fuzzRequest, type BodyType } from '../../../../lib/apiserver/testing/fuzz/writeRequests';
import type { TestCluster } from '../apiserver';
import type { FuzzCase } from './fuzzCase';

/** `perType` mutated bodies of every patch type and of PUT and POST, as the admin. */
export function writeBodyCases(rng: Prng, targets: readonly PatchTarget[], perType: number): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const type of bodyTypes) {
    for (let i = 0; i < perType; i++) {
      const r = fuzzRequest(rng, type, targets);
      out.push({ name: `write-body/${type} ${r.classes.join('+')}`, method: r.method, path: r.path, headers: r.headers, body: r.body, identity: 'admin' });
    }
  }
  return out;
}

/** The body type a barrage case is (for the upstream 500s of leakJudge), if it is a write. */
export function bodyTypeOf(method: string, contentType: string): BodyType | undefined {
  const ct = contentType.split(';')[0].trim().toLowerCase();
  if (method === 'PUT') return 'update';
  if (method === 'POST') return 'create';
  if (method !== 'PATCH') return undefined;
  const byType: Record<string, BodyType> = {
    'application/json-patch+json': 'json-patch',
    'application/merge-patch+json': 'merge-patch',
    'application/strategic-merge-patch+json': 'strategic-merge-patch',
    'application/apply-patch+yaml': 'apply-yaml',
    'application/apply-patch+cbor': 'apply-cbor',
  };
  return byType[ct];
}

/** createTargets' requests sent to a running cluster as the admin. */
export function clusterSend(c: TestCluster): Send {
  return async (r) => {
    const res = await c.apiserver.request(r.method, r.path, { body: r.body ? Buffer.from(r.body) : undefined, headers: r.headers });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.status, headers, body: res.bytes };
  };
}
