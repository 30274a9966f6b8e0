// Upstream's v1 defaulting (apiextensions v1 defaults.go): names.singular and listKind from the
// kind, conversion None, a webhook service's port 443, and status.storedVersions from the
// storage version when empty.
import type { CustomResourceDefinition } from '../../api';

export function applyCrdDefaults(crd: CustomResourceDefinition): void {
  const spec = crd.spec;
  if (spec) {
    const names = (spec.names ??= {});
    if (!names.singular) names.singular = (names.kind ?? '').toLowerCase();
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
    spec.conversion ??= { strategy: 'None' };
    const service = spec.conversion.webhook?.clientConfig?.service;
    if (service) service.port ??= 443;
  }
  if (!crd.status?.storedVersions?.length) {
    const storage = (spec?.versions ?? []).find((v) => v.storage === true);
    if (storage) (crd.status ??= {}).storedVersions = [storage.name ?? ''];
  }
}
