// The one place that knows the storage key layout (DESIGN.md §2.2, watch-and-list.md §1):
// <prefix>/<resource>/[<namespace>/]<name>, built-in resources without their group.
import type { ResourceInfo } from '../api';

export class KeyLayout {
  constructor(
    private readonly prefix: string,
    private readonly resource: ResourceInfo,
  ) {}

  /** Prefix of every object of the resource, ending in '/'. */
  get root(): string {
    return `${this.prefix.replace(/\/+$/, '')}/${this.resource.resource}/`;
  }

  /** Prefix of a collection: one namespace, or all objects when namespace is ''. */
  collection(namespace: string): string {
    return this.resource.namespaced && namespace ? `${this.root}${namespace}/` : this.root;
  }

  object(namespace: string, name: string): string {
    return this.resource.namespaced ? `${this.root}${namespace}/${name}` : `${this.root}${name}`;
  }
}
