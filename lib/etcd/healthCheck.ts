// The `etcd` health check (/livez, /readyz, /healthz) in upstream's words: a failure reads
// `error getting data from etcd: <why>` (storagebackend/factory/etcd3.go), where upstream's
// <why> is mostly `context deadline exceeded`; ours names the outage when one is known (which
// endpoints, since when, their errors), else the read's own error or its missing answer.
import type { EtcdAvailability } from './availability';

export interface HealthCheckedStorage {
  readonly availability: EtcdAvailability;
  currentRevision(): Promise<number>;
  connectAll(): void;
}

const prefix = 'error getting data from etcd: ';

/** null when etcd answered a read within timeoutMs (upstream's --etcd-healthcheck-timeout, 2 s), else the reason. */
export async function checkEtcdHealth(storage: HealthCheckedStorage, timeoutMs = 2000): Promise<string | null> {
  const known = storage.availability.describe();
  if (known) {
    // Answered at once; the probe still starts reconnecting, so an idle server notices etcd is back.
    storage.connectAll();
    return prefix + known;
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      storage.currentRevision().then(
        () => null,
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      ),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs);
      }),
    ]);
    if (outcome === null) return null;
    return prefix + (storage.availability.describe() ?? outcome ?? `no answer within ${timeoutMs} ms`);
  } finally {
    clearTimeout(timer);
  }
}
