// GET, PUT and PATCH of a view subresource (Strategy.subresourceViews, e.g. a custom resource's
// /scale): the request and response carry the view's kind; the write is an update of the parent
// through the store (main endpoint's strategy, admission, the view's resourceVersion as the
// precondition), answered with the view of what was written. Nothing here knows a kind.
import type { ApiObject } from '../../api';
import { normalize } from '../../codec/normalize';
import { errors } from '../../machinery/errors';
import { applyJsonPatch } from '../../machinery/jsonPatch';
import { applyMergePatch } from '../../machinery/mergePatch';
import { applyStrategicMergePatch } from '../../machinery/strategicMergePatch';
import type { AdmissionOptions, UpdatedObjectInfo } from '../../registry/store';
import type { SubresourceView } from '../../registry/strategy';
import type { HandlerContext } from '../handlerContext';
import { writeObject } from '../respond';
import { asPartialObjectMetadata } from '../partialObjectMetadata';
import { asTable, includeObjectFromQuery } from '../tableOutput';
import { decodeRequestBody, revalidateObject } from './body';
import { checkName } from './checkName';
import type { WriteOptions } from './writeOptions';

/** The view served at the request's subresource, if it is one. */
export function subresourceViewOf(h: HandlerContext): SubresourceView | undefined {
  return h.info.subresource ? h.served.store.strategy.subresourceViews?.[h.info.subresource] : undefined;
}

const infoOf = (view: SubresourceView): { group: string; version: string; kind: string; schema: SubresourceView['schema'] } => ({ ...view.kind, schema: view.schema });

/** The view in the negotiated representation: itself, its default Table or its PartialObjectMetadata. */
function respondView(h: HandlerContext, view: SubresourceView, code: number, obj: ApiObject, compression: boolean): void {
  const normalized = normalize(obj, view.schema);
  let body: unknown = normalized;
  if (h.output.partial) body = asPartialObjectMetadata(normalized, h.output.partial, { group: view.kind.group, kind: view.kind.kind, listKind: `${view.kind.kind}List` });
  else if (h.output.table) {
    // The parent's printer columns describe the parent: a view gets the default table (upstream's
    // ScaleREST has no TableConvertor of its own).
    body = asTable(normalized, { target: h.output.table, include: includeObjectFromQuery(h.query), now: h.now(), headers: true, typed: (o) => o });
  }
  writeObject(h.req, h.res, code, body as ApiObject, h.output, { compression, warnings: h.warnings });
}

/** GET: the view of the stored parent, read as the parent's GET reads it. */
export async function handleViewGet(h: HandlerContext, view: SubresourceView, read: { any: boolean; minRevision?: number }): Promise<void> {
  const parent = await h.served.store.get(h.requestContext(false), h.info.name, read);
  respondView(h, view, 200, view.read(parent, 'get'), h.features.isEnabled('APIResponseCompression'));
}

/** Admission sees the view of the old and new parent (upstream's toScaleUpdateValidation). */
function viewAdmission(h: HandlerContext, view: SubresourceView): AdmissionOptions {
  const admission = h.admission.admission;
  if (!admission) return { ...h.admission };
  return {
    ...h.admission,
    admission: (ctx, operation, obj, old, store) => admission(ctx, operation, view.read(obj, 'admission'), old && view.read(old, 'admission'), store),
  };
}

/** The body's namespace must be the request's, as for any object written (the store checks the parent's). */
function checkNamespace(h: HandlerContext, obj: ApiObject): void {
  const ns = obj.metadata?.namespace;
  if (h.served.info.namespaced && ns && ns !== h.info.namespace) {
    throw errors.badRequest(`the namespace of the object (${ns}) does not match the namespace on the request (${h.info.namespace})`);
  }
}

async function writeThroughView(h: HandlerContext, view: SubresourceView, opts: WriteOptions, next: (current: ApiObject) => ApiObject): Promise<void> {
  const { store } = h.served;
  const objInfo: UpdatedObjectInfo = (current) => {
    // A subresource never creates its parent.
    if (!current) throw errors.notFound(store.groupResource, h.info.name);
    return view.write(current, next(current));
  };
  const { obj } = await store.update(h.requestContext(opts.dryRun), h.info.name, objInfo, viewAdmission(h, view));
  respondView(h, view, 200, view.read(obj, 'get'), false);
}

/** PUT: the body is a whole view (decoded with its schema and fieldValidation). */
export async function handleViewUpdate(h: HandlerContext, view: SubresourceView, opts: WriteOptions): Promise<void> {
  const body = await decodeRequestBody(h, infoOf(view), opts.fieldValidation);
  checkName(body, h.info.name);
  checkNamespace(h, body);
  await writeThroughView(h, view, opts, () => body);
}

export type ViewPatch =
  | { type: 'json'; operations: readonly unknown[] }
  | { type: 'merge'; patch: unknown }
  | { type: 'strategic'; patch: unknown };

/** PATCH: the patch applies to the view of the current parent (again on a conflict's retry). */
export async function handleViewPatch(h: HandlerContext, view: SubresourceView, opts: WriteOptions, patch: ViewPatch): Promise<void> {
  await writeThroughView(h, view, opts, (current) => {
    const base = normalize(view.read(current, 'update'), view.schema);
    const patched =
      patch.type === 'json'
        ? applyJsonPatch(base, patch.operations)
        : patch.type === 'strategic'
          ? applyStrategicMergePatch(base, patch.patch, view.schema)
          : applyMergePatch(base, patch.patch);
    if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) throw errors.badRequest('the patched object is not a JSON object');
    const obj = revalidateObject(h, infoOf(view), patched as ApiObject, opts.fieldValidation);
    checkName(obj, h.info.name);
    checkNamespace(h, obj);
    return obj;
  });
}
