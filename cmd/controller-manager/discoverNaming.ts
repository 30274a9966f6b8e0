// The controller manager speaks the naming profile of the apiserver it manages, read from
// discovery (/apis) before anything loads lib/api (docs/design.md, "Naming profile").
import * as https from 'node:https';
import { namingProfiles, namingProfileNames, type NamingProfileName } from '../../lib/api/naming/profiles';
import type { KubeconfigContext } from '../../lib/client/kubeconfig';

/** The profile whose certificates group the APIGroupList names; undefined when none does. */
export function namingOfGroupList(body: unknown): NamingProfileName | undefined {
  const groups = (body as { groups?: Array<{ name?: unknown }> } | null)?.groups;
  if (!Array.isArray(groups)) return undefined;
  const names = new Set(groups.map((g) => g.name));
  return namingProfileNames.find((p) => names.has(`certificates.${namingProfiles[p].groupDomain}`));
}

/** GET /apis once with the kubeconfig's credentials. */
export function fetchGroupList(kc: KubeconfigContext, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL('/apis', kc.server),
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
          if (res.statusCode !== 200) return reject(new Error(`GET /apis: ${res.statusCode}`));
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
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

/** Asks discovery until the apiserver answers with a group list naming one profile. */
export async function discoverNaming(kc: KubeconfigContext, opts: { retryMs?: number; onRetry?: (reason: string) => void } = {}): Promise<NamingProfileName> {
  for (;;) {
    let reason: string;
    try {
      const found = namingOfGroupList(await fetchGroupList(kc));
      if (found) return found;
      reason = 'the group list names no certificates group of a known naming profile';
    } catch (e) {
      reason = (e as Error).message;
    }
    opts.onRetry?.(reason);
    await new Promise((r) => setTimeout(r, opts.retryMs ?? 1000));
  }
}
