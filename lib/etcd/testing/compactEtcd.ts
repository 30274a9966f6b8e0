// Compacts a test etcd's history up to `revision` through our own gRPC client, so tests need no
// etcdctl (Debian's etcd-server package ships only the server).
import { Etcd3Storage } from '../etcd3';

export async function compactEtcd(endpoint: string, revision: number): Promise<void> {
  const storage = new Etcd3Storage({ endpoints: [endpoint] });
  try {
    await storage.compact(revision);
  } finally {
    await storage.close();
  }
}
