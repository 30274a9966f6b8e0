// The ServiceAccount strategy. Upstream validates nothing beyond ObjectMeta (name: DNS-1123
// subdomain); secrets[] references are trimmed to their name, and the deprecated
// enforce-mountable-secrets annotation draws a warning when newly set.
import type { ServiceAccount } from '../../api';
import { annotations, serviceaccounts } from '../../api';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import type { RequestContext, Strategy } from '../strategy';
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

/** Strategy plus the warning hooks proposed for strategy.ts (upstream's WarningsOnCreate/Update). */
export interface ServiceAccountStrategy extends Strategy<ServiceAccount> {
  warningsOnCreate(ctx: RequestContext, obj: ServiceAccount): string[];
  warningsOnUpdate(ctx: RequestContext, obj: ServiceAccount, old: ServiceAccount): string[];
}

export const serviceAccountStrategy: ServiceAccountStrategy = {
  tableColumns: serviceAccountTableColumns,
  resource: serviceaccounts,
  validateName: nameIsDNSSubdomain,
  prepareForCreate(_ctx, obj) {
    cleanSecretReferences(obj);
  },
  // Only ObjectMeta is validated upstream (generic); secrets/imagePullSecrets names are not.
  validate() {
    return [];
  },
  prepareForUpdate(_ctx, obj) {
    cleanSecretReferences(obj);
  },
  validateUpdate() {
    return [];
  },
  allowUnconditionalUpdate: true,
  allowCreateOnUpdate: true,
  selectableFields(obj) {
    return { 'metadata.name': obj.metadata?.name ?? '', 'metadata.namespace': obj.metadata?.namespace ?? '' };
  },
  subresourceStrategies: {},
  deleteReturnsObject: true,
  warningsOnCreate(_ctx, obj) {
    return serviceAccountWarnings(obj, null);
  },
  warningsOnUpdate(_ctx, obj, old) {
    return serviceAccountWarnings(obj, old);
  },
};
