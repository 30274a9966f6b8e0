// The PATCH request body type upstream documents (meta/v1 Patch): an opaque object.
import { openapiDefinitionPrefix as P } from '../../api/product';
import { defineObject } from '../../api/schema';

export const PatchSchema = defineObject({
  name: `${P.meta}.Patch`,
  description: 'Patch is provided to give a concrete name and type to the PATCH request body.',
  fields: {},
});
