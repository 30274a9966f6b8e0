// Public surface of the discovery documents and /version.
export { aggregatedDiscovery, resourceDiscovery } from './aggregated';
export { apiGroup, apiGroupList, apiResourceList, apiResources, apiVersions, servedGroups } from './legacy';
export { aggregatedDiscoveryMediaType, aggregatedResponse, discoveryETag, negotiateDiscovery, renderAggregated } from './negotiate';
export type { DiscoveryFormat, DiscoveryHTTPResponse, RenderedDiscovery } from './negotiate';
export { createDiscovery } from './routes';
export type { Discovery, DiscoveryOptions, DiscoveryRequest, DiscoveryResult, PlainDiscoveryDocument } from './routes';
export { storageVersionHash } from './storageVersionHash';
export type * from './types';
export { compareVersionPriority } from '../../machinery/versionPriority';
export { defaultPlatform, versionInfo } from './version';
export type { VersionOptions } from './version';
