// The `request` variable of policy expressions: upstream's admission.v1 AdmissionRequest fields
// (without uid, object, oldObject and options, which policies read elsewhere or we lack).
import type { AdmissionAttributes } from '../attributes';

export function requestOf(a: AdmissionAttributes): Record<string, unknown> {
  const resource = { group: a.resource.group, version: a.version ?? '', resource: a.resource.resource };
  const kind = { group: a.resource.group, version: a.version ?? '', kind: a.kind ?? '' };
  const u = a.user;
  return {
    kind,
    resource,
    subResource: a.subresource,
    requestKind: kind,
    requestResource: resource,
    requestSubResource: a.subresource,
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: { username: u.name, uid: u.uid ?? '', groups: u.groups, extra: u.extra ?? {} },
    dryRun: a.dryRun,
  };
}
