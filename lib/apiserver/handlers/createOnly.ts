// POST to a create-only endpoint (access reviews, TokenReview, SelfSubjectReview, serviceaccounts/x/token):
// decode the body as the endpoint's kind, let the endpoint answer, reply 201 as upstream does.
import type { CreateOnlyEndpoint } from '../../registry/createOnly';
import { errors } from '../../machinery/errors';
import type { RequestHandlerContext } from '../handlerContext';
import { writeObject } from '../respond';
import { decodeRequestBody } from './body';
import { parseWriteOptions } from './writeOptions';

export async function handleCreateOnly(h: RequestHandlerContext, endpoint: CreateOnlyEndpoint): Promise<void> {
  const opts = parseWriteOptions(h.query, 'CreateOptions');
  h.dryRun = opts.dryRun;
  const obj = await decodeRequestBody(h, { ...endpoint.body }, opts.fieldValidation);
  const ns = obj.metadata?.namespace;
  if (h.info.namespace && ns && ns !== h.info.namespace) {
    throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const out = await endpoint.create(h.requestContext(opts.dryRun), h.info.name, obj);
  writeObject(h.req, h.res, 201, out, h.output, { compression: false, warnings: h.warnings });
}
