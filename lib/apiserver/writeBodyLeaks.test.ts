// The write bodies the fuzz (writeBodyFuzz.test.ts) found answered with JavaScript's error text,
// or with a 500 upstream does not give, and what kube-apiserver 1.32 answers instead. Each row
// used to leak: the comment above it says how.
import { encodeCBOR } from '../codec/cborEncode';
import { MemoryStorage } from '../etcd/memory';
import { builtinStrategies } from '../registry/builtin';
import { createStores } from '../registry/stores';
import { startInProcessServer, type InProcessServer } from './testing/inProcessServer';

const cm = '/api/v1/namespaces/fz/configmaps/cm';
const lease = '/apis/coordination.svc.io/v1/namespaces/fz/leases/l';
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
    // Was 500 InternalError "Cannot create property 'managedFields' on number '0.5'".
    ['apply, metadata a number', 'PATCH', `${cm}?fieldManager=m`, apply, '{"apiVersion":"v1","kind":"ConfigMap","metadata":0.5}', 500, 'failed to create typed patch object (/; /v1, Kind=ConfigMap): .metadata: expected map, got &{0.5}'],
    // Was 500 InternalError "Cannot create property 'managedFields' on string '0.5'".
    [
      'apply as YAML, metadata a string',
      'PATCH',
      `${lease}?fieldManager=m&force=true`,
      apply,
      "apiVersion: coordination.svc.io/v1\nkind: Lease\nmetadata: '0.5'\nspec:\n  holderIdentity: h1\n",
      500,
      'failed to create typed patch object (/; coordination.svc.io/v1, Kind=Lease): .metadata: expected map, got &{0.5}',
    ],
    // Was 500 InternalError "Cannot create property 'managedFields' on boolean 'true'".
    [
      'apply as CBOR, metadata a bool',
      'PATCH',
      `${cm}?fieldManager=m`,
      'application/apply-patch+cbor',
      encodeCBOR({ apiVersion: 'v1', kind: 'ConfigMap', metadata: true }, undefined),
      500,
      'failed to create typed patch object (/; /v1, Kind=ConfigMap): .metadata: expected map, got &{true}',
    ],
    // Was 500 "failed to create typed patch object (…): .metadata.Infinity: field not declared in schema".
    ['apply as YAML, a key YAML reads as +Inf', 'PATCH', `${cm}?fieldManager=m`, apply, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  .inf: x\n', 500, 'failed to create typed patch object (/cm; /v1, Kind=ConfigMap): .metadata..inf: field not declared in schema'],
    // Was 500 InternalError "associative list with keys has an element that omits key field "uid"" (a key present with null names the item).
    [
      'apply, a list-map key present with null',
      'PATCH',
      `${cm}?fieldManager=m`,
      apply,
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"o","uid":null}]}}',
      422,
      'ConfigMap "cm" is invalid: metadata.ownerReferences[0].uid: Required value: must not be empty',
    ],
    // Was 500 InternalError "associative list with keys has an element that omits key field "name"".
    [
      'apply to a stored object with a list-map item lacking its key',
      'PATCH',
      `${sa}?fieldManager=m`,
      apply,
      'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n',
      500,
      'failed to create typed live object (fz/sa; /v1, Kind=ServiceAccount): .secrets: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    ],
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

// Upstream's `GetManagedFields() != nil` (structuredmerge.go) is true only for a list whose items all
// convert to ManagedFieldsEntry; anything else is judged by the typed conversion after it. The
// first two rows answered so before; every other value used to be the 400 too.
describe('managedFields in an apply configuration', () => {
  test.each<[string, string, number, string | undefined]>([
    ['an empty list', '[]', 400, 'metadata.managedFields must be nil'],
    ['one empty entry', '[{}]', 400, 'metadata.managedFields must be nil'],
    ['not a list', '5', 500, 'failed to create typed patch object (/cm; /v1, Kind=ConfigMap): .metadata.managedFields: expected list, got &{5}'],
    ['an item that is not a map', '[5]', 500, 'failed to create typed patch object (/cm; /v1, Kind=ConfigMap): .metadata.managedFields[0]: expected map, got &{5}'],
    ['a manager that is not a string', '[{"manager":5}]', 500, 'failed to create typed patch object (/cm; /v1, Kind=ConfigMap): .metadata.managedFields[0].manager: expected string, got &value.valueUnstructured{Value:5}'],
    ['a time that does not parse (ignored, as the entries are)', '[{"manager":"m","time":"yesterday"}]', 200, undefined],
  ])('%s', async (_name, managedFields, status, message) => {
    const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","managedFields":${managedFields}},"data":{"b":"2"}}`;
    const r = await send('PATCH', `${cm}?fieldManager=m&force=true`, apply, body);
    expect({ status: r.status, message: r.status_.message }).toEqual({ status, message: status < 300 ? undefined : message });
  });
});
