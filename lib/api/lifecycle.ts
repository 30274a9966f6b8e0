// The lifecycle of a served group/version (upstream's prerelease-lifecycle-gen tags): the
// release that introduced it, deprecates it and stops serving it, and what replaces it. Alpha
// and beta versions get upstream's defaults (deprecated 3 minors after introduction, removed 3
// minors after deprecation); a GA version is deprecated or removed only when it says so.
import { serverVersion } from './product';

export interface Release {
  major: number;
  minor: number;
}

export interface ApiLifecycle {
  /** +k8s:prerelease-lifecycle-gen:introduced */
  introduced: Release;
  /** +k8s:prerelease-lifecycle-gen:deprecated; default introduced+3 minors (non-GA only). */
  deprecated?: Release;
  /** +k8s:prerelease-lifecycle-gen:removed; default deprecated+3 minors (non-GA only). */
  removed?: Release;
  /** +k8s:prerelease-lifecycle-gen:replacement=<group>,<version>,<kind> */
  replacement?: { group: string; version: string; kind: string };
}

/** The release this server is (what /version reports). */
export const currentRelease: Release = { major: Number(serverVersion.major), minor: Number(serverVersion.minor) };

export type Stability = 'ga' | 'beta' | 'alpha' | 'other';

/** Upstream's api/ga, api/beta and api/alpha patterns (k8s.io/apiserver resourceconfig). */
export function stabilityOf(version: string): Stability {
  if (/^v\d+$/.test(version)) return 'ga';
  if (/^v\d+beta\d+$/.test(version)) return 'beta';
  if (/^v\d+alpha\d+$/.test(version)) return 'alpha';
  return 'other';
}

export interface LifecycleReleases {
  introduced?: Release;
  deprecated?: Release;
  removed?: Release;
  replacement?: ApiLifecycle['replacement'];
}

const plusMinors = (r: Release, n: number): Release => ({ major: r.major, minor: r.minor + n });

/** The releases after upstream's defaulting (prerelease-lifecycle-gen argsFromType). */
export function lifecycleReleases(version: string, lc: ApiLifecycle | undefined): LifecycleReleases {
  if (!lc) return {};
  if (stabilityOf(version) === 'ga') return { ...lc };
  const deprecated = lc.deprecated ?? plusMinors(lc.introduced, 3);
  const removed = lc.removed ?? plusMinors(deprecated, 3);
  return { introduced: lc.introduced, deprecated, removed, replacement: lc.replacement };
}

/** a ≤ b, comparing major then minor. */
export function releaseAtOrBefore(a: Release, b: Release): boolean {
  return a.major < b.major || (a.major === b.major && a.minor <= b.minor);
}

export function formatRelease(r: Release): string {
  return `${r.major}.${r.minor}`;
}

/** deprecation.IsDeprecated: a deprecation release at or before the current one. */
export function isDeprecated(l: LifecycleReleases, current: Release = currentRelease): boolean {
  return !!l.deprecated && releaseAtOrBefore(l.deprecated, current);
}

/** deprecation.RemovedRelease: "<major>.<minor>", or "" when no removal is planned. */
export function removedRelease(l: LifecycleReleases): string {
  return l.removed ? formatRelease(l.removed) : '';
}

/** Upstream stops serving a version once the current release reaches its removed release. */
export function isRemoved(l: LifecycleReleases, current: Release = currentRelease): boolean {
  return !!l.removed && releaseAtOrBefore(l.removed, current);
}

/** deprecation.WarningMessage: `<gv> <Kind> is deprecated in vX.Y+, unavailable in vX.Z+; use <gv> <Kind>`. */
export function deprecationWarning(groupVersion: string, kind: string, l: LifecycleReleases): string {
  if (!l.deprecated) return '';
  let text = `${groupVersion} ${kind} is deprecated in v${formatRelease(l.deprecated)}+`;
  if (l.removed) text += `, unavailable in v${formatRelease(l.removed)}+`;
  const r = l.replacement;
  if (r && (r.group || r.version || r.kind)) text += `; use ${r.group ? `${r.group}/${r.version}` : r.version} ${r.kind}`;
  return text;
}
