// The served resources, looked up by group, version and plural name.
import type { ResourceInfo } from '../api';
import type { GenericStore } from '../registry/store';

export interface ServedResource {
  info: ResourceInfo;
  store: GenericStore;
}

export class ResourceTable {
  private readonly byPath = new Map<string, ServedResource>();
  constructor(readonly resources: readonly ServedResource[]) {
    for (const r of resources) this.byPath.set(`${r.info.group}/${r.info.version}/${r.info.resource}`, r);
  }
  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }
  get infos(): ResourceInfo[] {
    return this.resources.map((r) => r.info);
  }
}
