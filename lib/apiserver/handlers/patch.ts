// PATCH: the patch is applied to the current object inside the registry's guaranteed update, so
// a conflicting concurrent write re-applies it to the fresh object (upstream's patcher).
import type { ApiObject } from '../../api';
import { errors } from '../../machinery/errors';
import { applyJsonPatch, decodeJsonPatch } from '../../machinery/jsonPatch';
import { applyMergePatch, decodeMergePatch } from '../../machinery/mergePatch';
import { applyStrategicMergePatch, decodeStrategicMergePatch } from '../../machinery/strategicMergePatch';
import type { JsonValue } from '../../machinery/jsonValue';
import type { HandlerContext } from '../handlerContext';
import { revalidateObject } from './body';
import { checkName } from './checkName';
import { applyTo, decodeApplyPatch, decodeApplyPatchCbor } from './applyPatch';
import { parseWriteOptions } from './writeOptions';
import { respondWritten } from './writtenResponse';
import { handleViewPatch, subresourceViewOf } from './subresourceView';

// Upstream's order (the 415 text lists them so); CBOR apply only with CBORServingAndStorage.
// JSON, merge and strategic patches have no CBOR form: such a body is a 415 like any other.
const patchTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/apply-patch+cbor',
] as const;
type PatchType = (typeof patchTypes)[number];

function patchTypeOf(h: HandlerContext): PatchType {
  const cbor = h.features.isEnabled('CBORServingAndStorage');
  // Custom resources have no strategic merge patch (no patch strategies in their schemas).
  const unstructured = h.served.info.unstructured === true;
  // Server-side apply of a view (/scale) needs its managedFields mapped to and from the parent's
  // (upstream's ScaleHandler): not done here, so apply is not among a view's patch types.
  const view = subresourceViewOf(h) !== undefined;
  const supported = patchTypes.filter(
    (t) => (cbor || t !== 'application/apply-patch+cbor') && !(unstructured && t === 'application/strategic-merge-patch+json') && !(view && t.startsWith('application/apply-patch')),
  );
  const ct = String(h.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if ((supported as readonly string[]).includes(ct)) return ct as PatchType;
  throw errors.unsupportedMediaType(supported.join(', '));
}

export async function handlePatch(h: HandlerContext): Promise<void> {
  const { store, info } = h.served;
  const type = patchTypeOf(h);
  const isApply = type === 'application/apply-patch+yaml' || type === 'application/apply-patch+cbor';
  h.isApply = isApply;
  const opts = parseWriteOptions(h.query, 'PatchOptions', isApply ? 'apply' : 'other');
  h.dryRun = opts.dryRun;
  const view = subresourceViewOf(h);
  const body = await h.readBody();
  if (isApply) {
    const applyBody = type === 'application/apply-patch+cbor' ? { config: decodeApplyPatchCbor(body) } : decodeApplyPatch(body, opts.fieldValidation);
    h.audit?.setRequestPatch(applyBody.config);
    const fn = applyTo(h, applyBody, opts.fieldManager, opts.force === true, opts.fieldValidation, opts.dryRun);
    const { obj, created } = await store.update(h.requestContext(opts.dryRun), h.info.name, fn, { ...h.admission, forceAllowCreate: true, applied: true });
    respondWritten(h, created ? 201 : 200, obj);
    return;
  }
  const decoded = type === 'application/json-patch+json' ? decodeJsonPatch(body, opts.fieldValidation) : undefined;
  const mergePatch = type === 'application/merge-patch+json' ? decodeMergePatch(body, opts.fieldValidation) : undefined;
  const strategicPatch = type === 'application/strategic-merge-patch+json' ? decodeStrategicMergePatch(body, opts.fieldValidation) : undefined;
  h.audit?.setRequestPatch((decoded?.operations ?? mergePatch ?? strategicPatch) as JsonValue);
  if (view) {
    const patch = decoded ? { type: 'json' as const, operations: decoded.operations } : strategicPatch ? { type: 'strategic' as const, patch: strategicPatch } : { type: 'merge' as const, patch: mergePatch };
    return handleViewPatch(h, view, opts, patch);
  }

  const apply = (current: ApiObject | null): ApiObject => {
    if (!current) throw errors.notFound(store.groupResource, h.info.name);
    const patched = decoded
      ? applyJsonPatch(current, decoded.operations)
      : strategicPatch
        ? applyStrategicMergePatch(current, strategicPatch, info.schema)
        : applyMergePatch(current, mergePatch);
    if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
      throw errors.badRequest('the patched object is not a JSON object');
    }
    const obj = revalidateObject(h, info, patched as ApiObject, opts.fieldValidation);
    checkName(obj, h.info.name);
    return obj;
  };
  const { obj } = await store.update(h.requestContext(opts.dryRun), h.info.name, apply, h.admission);
  respondWritten(h, 200, obj);
}
