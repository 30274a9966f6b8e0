// The response to a write (create, update, patch, apply): the object the store wrote, in the
// negotiated representation. Its compact JSON is the text the serving cache kept from the bytes
// the store wrote (respond.ts asks it), so no verb picks its own serialisation.
import type { ApiObject } from '../../api';
import type { HandlerContext } from '../handlerContext';
import { writeObject } from '../respond';
import { responseBody } from '../tableResponse';

export function respondWritten(h: HandlerContext, code: number, obj: ApiObject): void {
  writeObject(h.req, h.res, code, responseBody(h, obj), h.output, { compression: false, warnings: h.warnings });
}
