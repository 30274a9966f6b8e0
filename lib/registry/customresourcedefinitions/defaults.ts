// Upstream's v1 defaulting (apiextensions v1 defaults.go): names.singular and listKind from the
// kind, conversion None, a webhook service's port 443, and status.storedVersions from the
// storage version when empty. Free-form schema parts are put in Go's shape (canonicalSchema.ts).
import type { CustomResourceDefinition } from '../../api';
import { canonicalizeSchema } from './canonicalSchema';

export function applyCrdDefaults(crd: CustomResourceDefinition): void {
  const spec = crd.spec;
  if (spec) {
    const names = (spec.names ??= {});
    if (!names.singular) names.singular = (names.kind ?? '').toLowerCase();
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
    spec.conversion ??= { strategy: 'None' };
    const service = spec.conversion.webhook?.clientConfig?.service;
    if (service) service.port ??= 443;
    for (const v of spec.versions ?? []) canonicalizeSchema(v.schema?.openAPIV3Schema);
  }
  if (!crd.status?.storedVersions?.length) {
    const storage = (spec?.versions ?? []).find((v) => v.storage === true);
    if (storage) (crd.status ??= {}).storedVersions = [storage.name ?? ''];
  }
}
