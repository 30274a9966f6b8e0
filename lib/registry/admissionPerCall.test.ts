// Admission is given with each write (upstream's createValidation/updateValidation/
// deleteValidation): the call's function runs, with the operation and objects of that write, and
// a write without one is admitted by nothing.
import { MemoryStorage } from '../etcd/memory';
import { errors, isApiError } from '../machinery/errors';
import type { ApiObject } from '../api';
import { builtinStrategies } from './builtin';
import { createStores, systemContext } from './stores';
import { replacementWith, type GenericStore, type ValidatingAdmission } from './store';

let cm: GenericStore;
const ctx = systemContext('team');

beforeEach(async () => {
  const stores = createStores(new MemoryStorage(), builtinStrategies, '/registry', { watchCache: false });
  cm = stores.find((s) => s.resource.resource === 'configmaps')!;
});

interface Seen {
  operation: string;
  name?: string;
  oldName?: string;
}

function recording(deny = false): { admission: ValidatingAdmission; seen: Seen[] } {
  const seen: Seen[] = [];
  const admission: ValidatingAdmission = async (_ctx, operation, obj, old, store) => {
    seen.push({ operation, name: obj.metadata?.name, oldName: old?.metadata?.name });
    if (deny) throw errors.forbidden(store.groupResource, obj.metadata?.name ?? '', 'denied by the test');
  };
  return { admission, seen };
}

async function code(p: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (isApiError(e)) return e.code;
    throw e;
  }
}

const configMap = (name: string, data: Record<string, string> = {}): ApiObject => ({ metadata: { name }, data }) as ApiObject;

describe('admission per call', () => {
  test('create, update and delete run the admission they are given, with their operation and objects', async () => {
    const { admission, seen } = recording();
    const created = await cm.create(ctx, configMap('a'), { admission });
    await cm.update(ctx, 'a', replacementWith({ ...created, data: { k: 'v' } } as ApiObject), { admission });
    await cm.delete(ctx, 'a', {}, { admission });
    expect(seen).toEqual([
      { operation: 'CREATE', name: 'a', oldName: undefined },
      { operation: 'UPDATE', name: 'a', oldName: 'a' },
      { operation: 'DELETE', name: 'a', oldName: 'a' },
    ]);
  });

  test('a denying admission stops each write; the same store writes freely without one', async () => {
    const { admission, seen } = recording(true);
    expect(await code(cm.create(ctx, configMap('b'), { admission }))).toBe(403);
    const stored = await cm.create(ctx, configMap('b'));
    expect(await code(cm.update(ctx, 'b', replacementWith({ ...stored, data: { k: 'v' } } as ApiObject), { admission }))).toBe(403);
    expect(await code(cm.delete(ctx, 'b', {}, { admission }))).toBe(403);
    expect(seen.map((s) => s.operation)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
    expect((await cm.get(ctx, 'b')).data).toBeUndefined();
    expect(await code(cm.delete(ctx, 'b'))).toBe('ok');
  });

  test('an update that creates (apply of a missing object) is admitted as a CREATE', async () => {
    const { admission, seen } = recording();
    await cm.update(ctx, 'c', () => configMap('c'), { admission, forceAllowCreate: true });
    expect(seen).toEqual([{ operation: 'CREATE', name: 'c', oldName: undefined }]);
  });
});
