// Public surface of the namespace controller: the controller, the deleter it drives, the
// discovery it relies on and the status conditions it keeps.
export { NamespaceController, namespaceControllerName, namespaceControllerRateLimiter } from './namespaceController';
export type { NamespaceControllerOptions } from './namespaceController';
export { AggregateSyncError, finalizerEstimateSeconds, NamespacedResourcesDeleter, ResourcesRemainingError } from './resourcesDeleter';
export type { NamespaceDeleterClient, NamespacedResourcesDeleterOptions } from './resourcesDeleter';
export { discoverNamespacedResources, formatGroupVersionResource, GroupDiscoveryFailedError, groupVersionDiscoveryPath, parseGroupVersion } from './discovery';
export type { DiscoveredResource, DiscoveredResourceList, DiscoveryFetch, GroupVersionResource, NamespacedResourcesDiscovery } from './discovery';
export { conditionTime, NamespaceConditionUpdater, namespaceConditionTypes } from './deletionConditions';
export type { NamespaceCondition, RemainingContent } from './deletionConditions';
