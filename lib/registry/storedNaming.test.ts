import type * as StoredNaming from './storedNaming';
import type * as Etcd from '../etcd';

/** The module and a memory store loaded under one naming profile (a module graph per profile). */
function loadWith(profile: string): { m: typeof StoredNaming; etcd: typeof Etcd } {
  let out: { m: typeof StoredNaming; etcd: typeof Etcd } | undefined;
  jest.isolateModules(() => {
    (require('../api/naming/selection') as typeof import('../api/naming/selection')).selectNaming(profile);
    out = { m: require('./storedNaming') as typeof StoredNaming, etcd: require('../etcd') as typeof Etcd };
  });
  return out!;
}

describe('stored naming profile', () => {
  const svc = loadWith('svc');
  const k8s = loadWith('k8s');

  it('records the profile of the first server and accepts the same profile again', async () => {
    const storage = new k8s.etcd.MemoryStorage();
    await k8s.m.ensureStoredNaming(storage, '/registry');
    const got = await storage.get(k8s.m.storedNamingKey('/registry'));
    expect(Buffer.from(got.kv!.value).toString()).toBe('k8s');
    await expect(k8s.m.ensureStoredNaming(storage, '/registry')).resolves.toBeUndefined();
    await storage.close();
  });

  it('refuses the other profile on the same data, naming both', async () => {
    const storage = new k8s.etcd.MemoryStorage();
    await k8s.m.ensureStoredNaming(storage, '/registry');
    await expect(svc.m.ensureStoredNaming(storage, '/registry')).rejects.toThrow(
      'the data under etcd prefix "/registry" is spelled with --api-naming=k8s, this server was started with --api-naming=svc',
    );
    await storage.close();
  });

  it('reads data written before the record as svc data', async () => {
    const storage = new k8s.etcd.MemoryStorage();
    await storage.create('/registry/namespaces/default', Buffer.from('{}'));
    await expect(k8s.m.ensureStoredNaming(storage, '/registry')).rejects.toThrow(/spelled with --api-naming=svc/);
    await expect(svc.m.ensureStoredNaming(storage, '/registry')).resolves.toBeUndefined();
    await storage.close();
  });

  it('keeps prefixes apart', async () => {
    const storage = new k8s.etcd.MemoryStorage();
    await k8s.m.ensureStoredNaming(storage, '/a');
    await expect(svc.m.ensureStoredNaming(storage, '/b')).resolves.toBeUndefined();
    await storage.close();
  });
});
