export { namespaceLifecycle } from './namespaceLifecycle';
export type { NamespaceLifecycleInput, NamespaceLookup } from './namespaceLifecycle';
