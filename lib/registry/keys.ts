// The one place that knows the storage key layout (DESIGN.md §2.2, watch-and-list.md §1):
// <prefix>/<resource>/[<namespace>/]<name>, built-in resources without their group; custom
// resources (and CRDs) under <prefix>/<group>/<resource>/ (ResourceInfo.storagePath).
import type { ResourceInfo } from '../api';

export class KeyLayout {
  constructor(
    private readonly prefix: string,
    private readonly resource: ResourceInfo,
  ) {}

  /** Prefix of every object of the resource, ending in '/'. */
  get root(): string {
    return `${this.prefix.replace(/\/+$/, '')}/${this.resource.storagePath ?? this.resource.resource}/`;
  }

  /** Prefix of a collection: one namespace, or all objects when namespace is ''. */
  collection(namespace: string): string {
    return this.resource.namespaced && namespace ? `${this.root}${namespace}/` : this.root;
  }

  object(namespace: string, name: string): string {
    return this.resource.namespaced ? `${this.root}${namespace}/${name}` : `${this.root}${name}`;
  }

  /** The inverse of object(): the namespace and name a key of this resource stands for. */
  identity(key: string): { namespace: string; name: string } {
    const rest = key.startsWith(this.root) ? key.slice(this.root.length) : key;
    if (!this.resource.namespaced) return { namespace: '', name: rest };
    const slash = rest.indexOf('/');
    return slash < 0 ? { namespace: '', name: rest } : { namespace: rest.slice(0, slash), name: rest.slice(slash + 1) };
  }
}
