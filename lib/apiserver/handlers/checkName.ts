// Upstream's checkName for update and patch: the object's name must be the URL's. An empty name
// does not match (the registry would otherwise fill it in, and an empty PUT body would replace
// the object).
import type { ApiObject } from '../../api';
import { errors } from '../../machinery/errors';

export function checkName(obj: ApiObject, urlName: string): void {
  const name = obj.metadata?.name ?? '';
  if (name !== urlName) throw errors.badRequest(`the name of the object (${name}) does not match the name on the URL (${urlName})`);
}
