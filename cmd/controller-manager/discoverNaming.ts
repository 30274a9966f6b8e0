// The controller manager speaks the naming profile of the apiserver it manages, read from
// discovery (/apis) before anything loads lib/api (docs/decisions.md, "Naming profile").
import * as https from 'node:https';
import { namingProfiles, namingProfileNames, type NamingProfileName } from '../../lib/api/naming/profiles';
import type { KubeconfigContext } from '../../lib/client/kubeconfig';

/** The profile whose group suffix the APIGroupList's groups carry; undefined when none does (every group disabled). */
export function namingOfGroupList(body: unknown): NamingProfileName | undefined {
  const groups = (body as { groups?: Array<{ name?: unknown }> } | null)?.groups;
  if (!Array.isArray(groups)) return undefined;
  const names = groups.map((g) => String(g.name));
  return namingProfileNames.find((p) => names.some((n) => n.endsWith(`.${namingProfiles[p].groupDomain}`)));
}

/** GET path once with the kubeconfig's credentials; the status and the JSON body. */
export function fetchJson(kc: KubeconfigContext, path: string, signal?: AbortSignal): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL(path, kc.server),
      {
        method: 'GET',
        ca: kc.ca,
        cert: kc.cert,
        key: kc.key,
        servername: kc.tlsServerName,
        rejectUnauthorized: !kc.insecureSkipTLSVerify,
        headers: { Accept: 'application/json', ...(kc.token ? { Authorization: `Bearer ${kc.token}` } : {}) },
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          } catch (e) {
            reject(e as Error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Asks discovery until the apiserver answers with a group list of one profile's spelling; with
 * every group disabled (--runtime-config), the profile whose system namespace exists.
 */
export async function discoverNaming(kc: KubeconfigContext, opts: { retryMs?: number; onRetry?: (reason: string) => void } = {}): Promise<NamingProfileName> {
  for (;;) {
    let reason: string;
    try {
      const apis = await fetchJson(kc, '/apis');
      if (apis.status !== 200) throw new Error(`GET /apis: ${apis.status}`);
      const found = namingOfGroupList(apis.body) ?? (await namingOfSystemNamespace(kc));
      if (found) return found;
      reason = 'neither the group list nor a system namespace shows a known naming profile yet';
    } catch (e) {
      reason = (e as Error).message;
    }
    opts.onRetry?.(reason);
    await new Promise((r) => setTimeout(r, opts.retryMs ?? 1000));
  }
}

async function namingOfSystemNamespace(kc: KubeconfigContext): Promise<NamingProfileName | undefined> {
  for (const p of namingProfileNames) {
    if ((await fetchJson(kc, `/api/v1/namespaces/${namingProfiles[p].namespacePrefix}-system`)).status === 200) return p;
  }
  return undefined;
}
