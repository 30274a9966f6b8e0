// The write bodies the fuzz (writeBodyFuzz.test.ts) found answered with JavaScript's error text,
// or with a 500 upstream does not give, and what kube-apiserver 1.32 answers instead. Each row
// used to leak: the comment above it says how.
import { MemoryStorage } from '../etcd/memory';
import { builtinStrategies } from '../registry/builtin';
import { createStores } from '../registry/stores';
import { startInProcessServer, type InProcessServer } from './testing/inProcessServer';

const cm = '/api/v1/namespaces/fz/configmaps/cm';
const sa = '/api/v1/namespaces/fz/serviceaccounts/sa';
const apply = 'application/apply-patch+yaml';
const smp = 'application/strategic-merge-patch+json';
const panicked = 'This request caused apiserver to panic. Look in the logs for details.';

let storage: MemoryStorage;
let s: InProcessServer;

async function send(method: string, path: string, contentType: string, body: string | Buffer) {
  const r = await s.request({ method, path, headers: { 'Content-Type': contentType, Accept: 'application/json' }, body: Buffer.from(body) });
  return { status: r.status, warning: r.headers.warning, status_: JSON.parse(r.body.toString('utf8')) as { message?: string; reason?: string; code?: number } };
}

beforeAll(async () => {
  storage = new MemoryStorage();
  s = startInProcessServer(createStores(storage, builtinStrategies, '/registry', { watchCache: false }), { featureGates: 'CBORServingAndStorage=true' });
  const create = async (path: string, body: object) => {
    const r = await send('POST', path, 'application/json', JSON.stringify(body));
    if (r.status !== 201) throw new Error(`${path}: ${r.status} ${r.status_.message}`);
  };
  await create('/api/v1/namespaces', { metadata: { name: 'fz' } });
  await create('/api/v1/namespaces/fz/configmaps', { metadata: { name: 'cm', finalizers: ['fuzz.example/keep'] }, data: { a: '1' } });
  await create('/apis/coordination.svc.io/v1/namespaces/fz/leases', { metadata: { name: 'l' }, spec: { holderIdentity: 'h' } });
  // A list-map item without its key: valid for ServiceAccount (ObjectReference's name is optional).
  await create('/api/v1/namespaces/fz/serviceaccounts', { metadata: { name: 'sa' }, secrets: [{}] });
});

afterAll(async () => {
  await s?.close();
  await storage?.close();
});

describe('answers that used to leak', () => {
  test.each<[string, string, string, string, string | Buffer, number, string]>([
    // Was 500 "failed to create typed patch object (…): .metadata.Infinity: field not declared in schema".
    ['apply as YAML, a key YAML reads as +Inf', 'PATCH', `${cm}?fieldManager=m`, apply, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  .inf: x\n', 500, 'failed to create typed patch object (/cm; /v1, Kind=ConfigMap): .metadata..inf: field not declared in schema'],
    // Was 500 "runtime error: hash of unhashable type map[string]interface {}" (Go's panic text).
    ['strategic merge, $setElementOrder of a primitive list holding a map', 'PATCH', cm, smp, '{"metadata":{"$setElementOrder/finalizers":[{"a":1}]}}', 500, panicked],
    // Was 500 "runtime error: invalid memory address or nil pointer dereference".
    ['strategic merge, an ordered primitive list starting with null', 'PATCH', sa, smp, '{"metadata":{"$setElementOrder/finalizers":[null,"x/y"],"finalizers":[null,"x/y"]}}', 500, panicked],
  ])('%s', async (_name, method, path, contentType, body, status, message) => {
    const r = await send(method, path, contentType, body);
    expect({ status: r.status, message: r.status_.message, code: r.status_.code }).toEqual({ status, message, code: status });
    // Upstream's plain errors carry no reason.
    if (status === 500) expect(r.status_.reason).toBeUndefined();
  });

  // Was `unknown field "Infinity"`.
  test('PUT as YAML, a key YAML reads as +Inf: the warning names it as Go does', async () => {
    const r = await send('PUT', `${cm}?fieldValidation=Warn`, 'application/yaml', 'apiVersion: v1\nkind: ConfigMap\n.inf: x\nmetadata:\n  name: cm\n  finalizers: [fuzz.example/keep]\n');
    expect(r.status).toBe(200);
    expect(r.warning).toBe('299 - "unknown field \\".inf\\""');
  });
});
