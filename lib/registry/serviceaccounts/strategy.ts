// The ServiceAccount strategy. Upstream validates nothing beyond ObjectMeta (name: DNS-1123
// subdomain); secrets[] references are trimmed to their name, and the deprecated
// enforce-mountable-secrets annotation draws a warning when newly set.
import type { ServiceAccount } from '../../api';
import { annotations, serviceaccounts } from '../../api';
import { DefaultStrategy } from '../defaultStrategy';
import type { RequestContext } from '../strategy';
import { serviceAccountTableColumns } from './tableColumns';

/** A secrets[] entry keeps only its name: the namespace is implied, the rest is meaningless. */
function cleanSecretReferences(sa: ServiceAccount): void {
  if (!Array.isArray(sa.secrets)) return;
  sa.secrets = sa.secrets.map((s) => (s?.name ? { name: s.name } : {}));
}

function hasEnforceAnnotation(sa: ServiceAccount | null): boolean {
  return sa?.metadata?.annotations?.[annotations.enforceMountableSecrets] !== undefined;
}

/** Warnings (Warning: 299 headers) for a create (old = null) or update. */
export function serviceAccountWarnings(sa: ServiceAccount, old: ServiceAccount | null): string[] {
  if (hasEnforceAnnotation(old) || !hasEnforceAnnotation(sa)) return [];
  return [
    `metadata.annotations[${annotations.enforceMountableSecrets}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets`,
  ];
}

// Only ObjectMeta is validated upstream (generic); secrets/imagePullSecrets names are not.
class ServiceAccountStrategy extends DefaultStrategy<ServiceAccount> {
  readonly resource = serviceaccounts;
  override readonly tableColumns = serviceAccountTableColumns;
  // Upstream's ServiceAccount strategy: AllowCreateOnUpdate false (a PUT of a missing one is 404).
  override readonly deleteReturnsObject = true;
  override prepareForCreate(_ctx: RequestContext, obj: ServiceAccount): void {
    cleanSecretReferences(obj);
  }
  override prepareForUpdate(_ctx: RequestContext, obj: ServiceAccount, _old: ServiceAccount): void {
    cleanSecretReferences(obj);
  }
  override warningsOnCreate(_ctx: RequestContext, obj: ServiceAccount): string[] {
    return serviceAccountWarnings(obj, null);
  }
  override warningsOnUpdate(_ctx: RequestContext, obj: ServiceAccount, old: ServiceAccount): string[] {
    return serviceAccountWarnings(obj, old);
  }
}

export const serviceAccountStrategy = new ServiceAccountStrategy();
