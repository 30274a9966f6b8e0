// Request bodies through lib/codec: decoding with fieldValidation, warnings collected for the
// Warning header. Patched objects are re-decoded the same way so unknown fields from a patch
// obey fieldValidation too.
import type { ApiObject, ObjectSchema, ResourceInfo } from '../../api';
import { groups } from '../../api/product';
import { decode, FieldValidation } from '../../codec';
import type { JsonValue } from '../../machinery/jsonValue';
import type { HandlerContext, RequestHandlerContext } from '../handlerContext';

function gvkOf(info: Pick<ResourceInfo, 'group' | 'version' | 'kind'>): { group: string; version: string; kind: string } {
  return { group: info.group, version: info.version, kind: info.kind };
}

export async function decodeRequestBody(h: RequestHandlerContext, info: Pick<ResourceInfo, 'group' | 'version' | 'kind' | 'schema'>, fieldValidation: FieldValidation): Promise<ApiObject> {
  const body = await h.readBody();
  const { object, warnings } = decode(body, {
    contentType: h.req.headers['content-type'],
    schema: info.schema,
    gvk: gvkOf(info),
    fieldValidation,
    cbor: h.features.isEnabled('CBORServingAndStorage'),
  });
  h.warnings.push(...warnings);
  h.audit?.setRequestObject(object as JsonValue);
  return object;
}

/** A patched object is validated like a PUT body of the same content. */
export function revalidateObject(h: HandlerContext, info: Pick<ResourceInfo, 'group' | 'version' | 'kind' | 'schema'>, obj: ApiObject, fieldValidation: FieldValidation): ApiObject {
  const { object, warnings } = decode(Buffer.from(JSON.stringify(obj)), {
    contentType: 'application/json',
    schema: info.schema,
    gvk: gvkOf(info),
    fieldValidation,
  });
  for (const w of warnings) if (!h.warnings.includes(w)) h.warnings.push(w);
  return object;
}

/** DeleteOptions bodies: meta.svc.io/v1, or any served group version as upstream accepts. */
export function decodeOptionsBody(h: HandlerContext, body: Buffer, schema: ObjectSchema): ApiObject {
  const { object } = decode(body, {
    contentType: h.req.headers['content-type'],
    schema,
    gvk: { group: groups.meta, version: 'v1', kind: 'DeleteOptions' },
    fieldValidation: 'Ignore',
    acceptsGroupVersion: () => true,
    cbor: h.features.isEnabled('CBORServingAndStorage'),
  });
  return object;
}
