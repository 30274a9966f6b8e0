// Public surface of the OpenAPI publisher: document builders and the /openapi handler.
export { buildOpenAPIV3, buildSwaggerV2 } from './documents';
export type { OpenAPIBuildOptions } from './documents';
export { createOpenAPIHandler, OpenAPIService, serveOpenAPI, serverRelativeURL, openapiV2Path, openapiV3Path } from './serve';
export type { HeaderBag, OpenAPIResponse, QueryBag, Rendered } from './serve';
export { routesOf, patchMediaTypes, toValidOperationId } from './routes';
export type { Action, GVK, Route, RouteOptions } from './routes';
export { PatchSchema } from './patchSchema';
