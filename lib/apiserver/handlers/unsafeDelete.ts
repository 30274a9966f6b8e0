// DELETE with ignoreStoreReadErrorWithClusterBreakingPotential (AllowUnsafeMalformedObjectDeletion):
// audited, authorized for a second verb, then the registry's corrupt-object deleter (upstream
// 1.32 endpoints/handlers/delete.go and its authorizeUnsafeDelete).
import type { Status } from '../../api';
import { auditAnnotationKeys } from '../../audit';
import { errors } from '../../machinery/errors';
import { deleteCorruptObject } from '../../registry/corruptObjectDeleter';
import type { HandlerContext } from '../handlerContext';
import { writeObject } from '../respond';
import { responseBody } from '../tableResponse';

export const unsafeDeleteVerb = 'unsafe-delete-ignore-read-errors';

/** The caller needs `unsafe-delete-ignore-read-errors` on the object as well as `delete`. */
export function authorizeUnsafeDelete(h: HandlerContext): void {
  const gr = h.served.store.groupResource;
  const name = h.info.name;
  if (h.info.subresource) {
    throw errors.forbidden(gr, name, 'ignoreStoreReadErrorWithClusterBreakingPotential delete option is not allowed on a subresource or non-resource request');
  }
  const r = h.authorizer.authorize({
    user: h.user,
    verb: unsafeDeleteVerb,
    isResourceRequest: true,
    path: '',
    namespace: h.info.namespace,
    apiGroup: h.info.group,
    apiVersion: h.info.version,
    resource: h.info.resource,
    subresource: '',
    name,
  });
  if (r.decision !== 'allow') throw errors.forbidden(gr, name, `not permitted to do ${JSON.stringify(unsafeDeleteVerb)}, reason: ${r.reason}`);
}

export async function handleUnsafeDelete(h: HandlerContext): Promise<void> {
  // Recorded before authorization, so a refused attempt is visible in the audit log too.
  h.audit?.addAnnotation(auditAnnotationKeys.unsafeDeleteIgnoreReadError, '');
  authorizeUnsafeDelete(h);
  const { store } = h.served;
  await deleteCorruptObject(store, h.requestContext(false), h.info.name);
  // Upstream's deleter returns no object: the handler answers a Success Status naming the kind.
  const body: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: h.info.name, kind: store.resource.kind }, code: 200 };
  writeObject(h.req, h.res, 200, responseBody(h, body), h.output, { compression: false, warnings: h.warnings });
}
