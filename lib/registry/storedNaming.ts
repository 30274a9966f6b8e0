// The naming profile is part of the data: objects are stored with their apiVersion, label keys
// and signer names spelled by it. The first server on a store records its profile; a server
// with the other profile on the same data refuses to start (docs/decisions.md, "Naming profile").
import { naming } from '../api/product';
import { KeyExistsError, type Storage } from '../etcd';

/** Data found without a record predates it and was written by the only profile there was then. */
const profileBeforeRecords = 'svc';

export class NamingMismatchError extends Error {}

export function storedNamingKey(prefix: string): string {
  return `${prefix}/apiserver/api-naming`;
}

/** Records this server's profile on first start; throws NamingMismatchError when the data has the other one. Retries while storage is unreachable. */
export async function ensureStoredNaming(storage: Storage, prefix: string, opts: { retryMs?: number } = {}): Promise<void> {
  const key = storedNamingKey(prefix);
  for (;;) {
    try {
      const recorded = await recordedNaming(storage, prefix, key);
      if (recorded !== naming.name) {
        throw new NamingMismatchError(
          `the data under etcd prefix "${prefix}" is spelled with --api-naming=${recorded}, this server was started with --api-naming=${naming.name}: ` +
            `start it with --api-naming=${recorded}, or use another --etcd-prefix or etcd (data is never served under both spellings)`,
        );
      }
      return;
    } catch (e) {
      if (e instanceof NamingMismatchError) throw e;
      await new Promise((r) => setTimeout(r, opts.retryMs ?? 500));
    }
  }
}

async function recordedNaming(storage: Storage, prefix: string, key: string): Promise<string> {
  for (;;) {
    const got = await storage.get(key);
    if (got.kv) return Buffer.from(got.kv.value).toString('utf8');
    const existing = await storage.list(`${prefix}/`, { limit: 1 });
    const profile = existing.count > 0 ? profileBeforeRecords : naming.name;
    try {
      await storage.create(key, Buffer.from(profile, 'utf8'));
      return profile;
    } catch (e) {
      // Another replica recorded first: read its record.
      if (!(e instanceof KeyExistsError)) throw e;
    }
  }
}
