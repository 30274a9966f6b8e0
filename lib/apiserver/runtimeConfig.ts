// --runtime-config as kube-apiserver reads it: cliflag.ConfigurationMap parsing, the completion
// step (core group keys v1 / api/v1 → "/v1", api/legacy dropped), APIEnablementOptions.Validate
// and resourceconfig.MergeAPIResourceConfigs over the default configuration. Messages are
// upstream's; a failure is a RuntimeConfigError for the command to report at start-up.
import { apiVersionOf, stabilityOf, type ResourceInfo } from '../api';
import { defaultResourceConfig, ResourceConfig, type GroupVersion } from './resourceConfig';

export class RuntimeConfigError extends Error {}

/** Insertion-ordered key → raw value ("" when the value was omitted). */
export type ConfigurationMap = Map<string, string>;

/** cliflag.ConfigurationMap.Set: comma-separated key[=value], both trimmed, empty items skipped. */
export function parseConfigurationMap(spec: string): ConfigurationMap {
  const out: ConfigurationMap = new Map();
  for (const item of spec.split(',')) {
    if (!item) continue;
    const eq = item.indexOf('=');
    if (eq < 0) out.set(item.trim(), '');
    else out.set(item.slice(0, eq).trim(), item.slice(eq + 1).trim());
  }
  return out;
}

/** kube-apiserver's Complete: any core key (v1, v1/…, api/v1, api/v1/…) becomes "/v1"; api/legacy is dropped. */
export function convertLegacyGroup(m: ConfigurationMap): ConfigurationMap {
  const out: ConfigurationMap = new Map();
  for (const [key, value] of m) {
    if (key === 'api/legacy') continue;
    if (key === 'v1' || key.startsWith('v1/') || key === 'api/v1' || key.startsWith('api/v1/')) out.set('/v1', value);
    else out.set(key, value);
  }
  return out;
}

/** The special keys, in the order they are applied (resourceconfig.groupVersionMatchersOrder). */
const groupVersionMatchers: ReadonlyArray<[string, (gv: GroupVersion) => boolean]> = [
  ['api/all', () => true],
  ['api/ga', (gv) => stabilityOf(gv.version) === 'ga'],
  ['api/beta', (gv) => stabilityOf(gv.version) === 'beta'],
  ['api/alpha', (gv) => stabilityOf(gv.version) === 'alpha'],
];
const isMatcherKey = (key: string): boolean => groupVersionMatchers.some(([k]) => k === key);

/** schema.ParseGroupVersion: more than one slash is an error. */
function parseGroupVersion(s: string): GroupVersion {
  if (s === '' || s === '/') return { group: '', version: '' };
  const parts = s.split('/');
  if (parts.length === 1) return { group: '', version: s };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  throw new Error(`unexpected GroupVersion string: ${s}`);
}

/** The group/versions this server knows (served or not): upstream's GroupVersionRegistry. */
export class GroupVersionRegistry {
  private readonly groups = new Set<string>();
  private readonly versions = new Set<string>();

  constructor(infos: readonly ResourceInfo[]) {
    for (const i of infos) {
      this.groups.add(i.group);
      this.versions.add(`${i.group}/${i.version}`);
    }
  }

  isGroupRegistered(group: string): boolean {
    return this.groups.has(group);
  }

  isVersionRegistered(gv: GroupVersion): boolean {
    return this.versions.has(`${gv.group}/${gv.version}`);
  }
}

/** resourceconfig.ParseGroups: the group of every group/version[/resource] key. */
function parseGroups(m: ConfigurationMap): string[] {
  const groups: string[] = [];
  for (const key of m.keys()) {
    if (isMatcherKey(key)) continue;
    const tokens = key.split('/');
    if (tokens.length !== 2 && tokens.length !== 3) throw new RuntimeConfigError(`runtime-config invalid key ${key}`);
    groups.push(parseGroupVersion(`${tokens[0]}/${tokens[1]}`).group);
  }
  return groups;
}

/** APIEnablementOptions.Validate: the messages upstream aggregates (empty = valid). */
export function validateRuntimeConfig(m: ConfigurationMap, registry: GroupVersionRegistry): string[] {
  if (m.get('api/all') === 'false' && m.size === 1) return ['invalid key with only api/all=false'];
  let groups: string[];
  try {
    groups = parseGroups(m);
  } catch (e) {
    return [(e as Error).message];
  }
  const unknown = groups.filter((g) => !registry.isGroupRegistered(g));
  return unknown.length ? [`unknown api groups ${unknown.join(',')}`] : [];
}

/** strconv.ParseBool, with upstream's "value omitted means true". */
function runtimeConfigValue(key: string, value: string): boolean {
  if (value === '') return true;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw new RuntimeConfigError(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}

/** resourceconfig.MergeAPIResourceConfigs: matchers first, then versions, then resources (highest priority). */
export function mergeAPIResourceConfigs(config: ResourceConfig, m: ConfigurationMap, registry: GroupVersionRegistry): ResourceConfig {
  for (const [key, matches] of groupVersionMatchers) {
    const value = m.get(key);
    if (value === undefined) continue;
    if (value === 'false') config.disableMatchingVersions(matches);
    else if (value === 'true') config.enableMatchingVersions(matches);
    else throw new RuntimeConfigError(`invalid value ${key}=${value}`);
  }
  const versionPrefs: Array<{ gv: GroupVersion; enabled: boolean }> = [];
  const resourcePrefs: Array<{ gv: GroupVersion; resource: string; enabled: boolean }> = [];
  for (const [key, value] of m) {
    if (isMatcherKey(key)) continue;
    const tokens = key.split('/');
    if (tokens.length < 2 || tokens.length > 3) continue;
    let gv: GroupVersion;
    try {
      gv = parseGroupVersion(`${tokens[0]}/${tokens[1]}`);
    } catch {
      throw new RuntimeConfigError(`invalid key ${key}`);
    }
    if (!registry.isGroupRegistered(gv.group)) continue;
    if (!registry.isVersionRegistered(gv)) throw new RuntimeConfigError(`group version ${apiVersionOf(gv)} that has not been registered`);
    const enabled = runtimeConfigValue(key, value);
    if (tokens.length === 2) {
      versionPrefs.push({ gv, enabled });
      continue;
    }
    if (tokens[2].toLowerCase() !== tokens[2]) {
      throw new RuntimeConfigError(`invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(tokens[2])}`);
    }
    resourcePrefs.push({ gv, resource: tokens[2], enabled });
  }
  for (const p of versionPrefs) (p.enabled ? config.enableVersions(p.gv) : config.disableVersions(p.gv));
  for (const p of resourcePrefs) (p.enabled ? config.enableResources(p.gv, p.resource) : config.disableResources(p.gv, p.resource));
  return config;
}

/** --runtime-config → the served configuration over `infos` (every registered resource). */
export function resourceConfigFromFlag(spec: string, infos: readonly ResourceInfo[]): ResourceConfig {
  const m = convertLegacyGroup(parseConfigurationMap(spec));
  const registry = new GroupVersionRegistry(infos);
  const errs = validateRuntimeConfig(m, registry);
  // utilerrors.NewAggregate: one error is its own text, several are bracketed.
  if (errs.length) throw new RuntimeConfigError(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  return mergeAPIResourceConfigs(defaultResourceConfig(infos), m, registry);
}
