// Which etcd a client talks to, and whether its requested progress notifications can be
// trusted. etcd before 3.4.25 and 3.5.8 may answer a progress request while events are still
// queued for a catching-up watcher (etcd-io/etcd#15220), so a revision learnt that way does
// not prove every earlier event was delivered.

/** The server version from etcd's /version endpoint (e.g. "3.4.23"). */
export async function fetchEtcdVersion(endpoint: string, timeoutMs = 2000): Promise<string> {
  const res = await fetch(`${endpoint.replace(/\/+$/, '')}/version`, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`GET ${endpoint}/version: HTTP ${res.status}`);
  const body = (await res.json()) as { etcdserver?: unknown };
  if (typeof body.etcdserver !== 'string') throw new Error(`GET ${endpoint}/version: no etcdserver version`);
  return body.etcdserver;
}

/** True when requested progress notifications are ordered after pending events. */
export function progressRequestsAreOrdered(version: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (major !== 3) return major > 3;
  if (minor < 4) return false;
  if (minor === 4) return patch >= 25;
  if (minor === 5) return patch >= 8;
  return true;
}
