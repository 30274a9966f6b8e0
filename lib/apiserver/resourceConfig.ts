// Which group/versions and resources are served (upstream's serverstorage.ResourceConfig): the
// one answer the route table, discovery and OpenAPI all derive from. Built from the defaults
// (GA on, alpha and beta off) and --runtime-config; a version past its removed release is
// never served, whatever the configuration says.
import { isRemoved, lifecycleReleases, releaseAtOrBefore, stabilityOf, type Release, type ResourceInfo } from '../api';
import { currentRelease } from '../api';

export interface GroupVersion {
  group: string;
  version: string;
}

const gvKey = (gv: GroupVersion): string => `${gv.group}/${gv.version}`;
const gvrKey = (gv: GroupVersion, resource: string): string => `${gv.group}/${gv.version}/${resource}`;

/** Betas introduced before this release are on by default (spec §9, as upstream's legacy betas). */
const betaOnByDefaultBefore: Release = { major: 1, minor: 22 };

export class ResourceConfig {
  /** Every known group/version and whether it is enabled. */
  private readonly versions = new Map<string, { gv: GroupVersion; enabled: boolean }>();
  /** Explicit per-resource preferences; they win over their version's. */
  private readonly resources = new Map<string, boolean>();

  enableVersions(...gvs: GroupVersion[]): void {
    for (const gv of gvs) this.setVersion(gv, true);
  }

  disableVersions(...gvs: GroupVersion[]): void {
    for (const gv of gvs) this.setVersion(gv, false);
  }

  /** Sets every known version the matcher accepts (api/all, api/ga, …). */
  enableMatchingVersions(matches: (gv: GroupVersion) => boolean): void {
    for (const { gv } of [...this.versions.values()]) if (matches(gv)) this.setVersion(gv, true);
  }

  disableMatchingVersions(matches: (gv: GroupVersion) => boolean): void {
    for (const { gv } of [...this.versions.values()]) if (matches(gv)) this.setVersion(gv, false);
  }

  enableResources(gv: GroupVersion, resource: string): void {
    this.resources.set(gvrKey(gv, resource), true);
  }

  disableResources(gv: GroupVersion, resource: string): void {
    this.resources.set(gvrKey(gv, resource), false);
  }

  versionEnabled(gv: GroupVersion): boolean {
    return this.versions.get(gvKey(gv))?.enabled ?? false;
  }

  /** An explicit resource preference first, else its version's. */
  resourceEnabled(gv: GroupVersion, resource: string): boolean {
    return this.resources.get(gvrKey(gv, resource)) ?? this.versionEnabled(gv);
  }

  private setVersion(gv: GroupVersion, enabled: boolean): void {
    this.versions.set(gvKey(gv), { gv: { group: gv.group, version: gv.version }, enabled });
    // A version-wide preference replaces the resource preferences under it (upstream likewise).
    const prefix = `${gvKey(gv)}/`;
    for (const k of [...this.resources.keys()]) if (k.startsWith(prefix)) this.resources.delete(k);
  }
}

/** Whether a version is on before --runtime-config: GA yes, alpha no, beta only if introduced before 1.22. */
export function enabledByDefault(info: Pick<ResourceInfo, 'version' | 'lifecycle'>): boolean {
  switch (stabilityOf(info.version)) {
    case 'ga':
      return true;
    case 'beta':
      return !!info.lifecycle && !releaseAtOrBefore(betaOnByDefaultBefore, info.lifecycle.introduced);
    default:
      return false;
  }
}

/** The default configuration over every registered resource (upstream's DefaultAPIResourceConfigSource). */
export function defaultResourceConfig(infos: readonly ResourceInfo[]): ResourceConfig {
  const config = new ResourceConfig();
  const seen = new Set<string>();
  for (const info of infos) {
    const key = gvKey(info);
    if (seen.has(key)) continue;
    seen.add(key);
    if (enabledByDefault(info)) config.enableVersions(info);
    else config.disableVersions(info);
  }
  return config;
}

/** Whether a resource is served: enabled, and its version not past its removed release. */
export function isServed(config: ResourceConfig, info: ResourceInfo, current: Release = currentRelease): boolean {
  return config.resourceEnabled(info, info.resource) && !isRemoved(lifecycleReleases(info.version, info.lifecycle), current);
}
