// The audit Policy (audit.svc.io/v1) and its loader: YAML or JSON text → a validated Policy.
// Decoding and validation follow upstream's pkg/audit/policy/reader.go and
// pkg/apis/audit/validation: unknown fields only warn (upstream falls back to lenient decoding),
// validation errors are field errors aggregated into one message, and a policy without rules is
// refused ("loaded illegal policy with 0 rules").
import { CORE_SCHEMA, load } from 'js-yaml';
import { groups } from '../api/product';
import { FieldError, fieldErr, FieldPath, renderFieldErrorList } from '../machinery/fieldErrors';
import { getOwn, isJsonObject } from '../machinery/jsonValue';
import { nameIsDNSSubdomain } from '../machinery/validation/names';

export const auditGroup = groups.audit;
export const auditApiVersion = `${groups.audit}/v1`;

/** How much of a request is recorded, in increasing order. */
export const levels = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof levels)[number];

/** The points of a request's life at which an event is emitted, in the order they happen. */
export const stages = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof stages)[number];

export function isLevel(v: unknown): v is Level {
  return typeof v === 'string' && (levels as readonly string[]).includes(v);
}
export function isStage(v: unknown): v is Stage {
  return typeof v === 'string' && (stages as readonly string[]).includes(v);
}

/** True when `level` records at least as much as `min` (upstream's !level.Less(min)). */
export function levelAtLeast(level: Level, min: Level): boolean {
  return levels.indexOf(level) >= levels.indexOf(min);
}

export interface GroupResources {
  /** The API group; "" (or absent) is the core group. */
  group?: string;
  /** "pods", "pods/log", "*", "pods/*", "*\/scale"; empty means every resource of the group. */
  resources?: string[];
  /** Requires resources; empty means every name. */
  resourceNames?: string[];
}

export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  /** "" matches cluster-scoped resources. */
  namespaces?: string[];
  /** Paths; "*" alone or as the final character matches by prefix. */
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  /** Overrides Policy.omitManagedFields when set. */
  omitManagedFields?: boolean;
}

export interface Policy {
  apiVersion: string;
  kind: 'Policy';
  metadata?: Record<string, unknown>;
  rules: PolicyRule[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** Thrown by loadPolicy; the message says what is wrong and where (rules[i]...). */
export class PolicyLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyLoadError';
  }
}

export interface LoadPolicyOptions {
  /** Called with upstream's warning when the policy has unknown fields (they are ignored). */
  warn?: (message: string) => void;
}

const policyFields = new Set(['apiVersion', 'kind', 'metadata', 'rules', 'omitStages', 'omitManagedFields']);
const ruleFields = new Set(['level', 'users', 'userGroups', 'verbs', 'resources', 'namespaces', 'nonResourceURLs', 'omitStages', 'omitManagedFields']);
const groupResourcesFields = new Set(['group', 'resources', 'resourceNames']);

/** Parse, decode and validate a policy file's text (YAML 1.2 core schema; JSON is YAML). */
export function loadPolicy(text: string, options: LoadPolicyOptions = {}): Policy {
  let doc: unknown;
  try {
    doc = load(text, { schema: CORE_SCHEMA });
  } catch (e) {
    throw new PolicyLoadError(`failed decoding: ${(e as Error).message.split('\n')[0]}`);
  }
  const decoder = new PolicyDecoder();
  const policy = decoder.policy(doc);
  if (decoder.unknown.length) {
    options.warn?.(
      `Audit policy contains errors, falling back to lenient decoding: strict decoding error: ${decoder.unknown.map((f) => `unknown field "${f}"`).join(', ')}`,
    );
  }
  const errs = validatePolicy(policy);
  if (errs.length) throw new PolicyLoadError(renderFieldErrorList(errs));
  if (policy.rules.length === 0) throw new PolicyLoadError('loaded illegal policy with 0 rules');
  return policy;
}

/** Typed decoding: wrong types are decoding errors, unknown fields are collected for the warning. */
class PolicyDecoder {
  readonly unknown: string[] = [];

  policy(doc: unknown): Policy {
    if (!isJsonObject(doc)) throw decodingError('', 'the policy must be an object');
    const kind = getOwn(doc, 'kind');
    const apiVersion = getOwn(doc, 'apiVersion');
    if (kind === undefined || kind === null || kind === '') throw decodingError('', "Object 'Kind' is missing");
    if (typeof kind !== 'string') throw decodingError('kind', 'must be a string');
    if (apiVersion !== undefined && apiVersion !== null && typeof apiVersion !== 'string') throw decodingError('apiVersion', 'must be a string');
    if (kind !== 'Policy' || apiVersion !== auditApiVersion) {
      // Upstream prints the group/version/kind it read; an absent apiVersion prints as "/".
      const gv = typeof apiVersion === 'string' && apiVersion ? apiVersion : '/';
      throw new PolicyLoadError(`unknown group version field ${gv}, Kind=${kind} in policy: want apiVersion "${auditApiVersion}" and kind "Policy"`);
    }
    this.collectUnknown(doc, policyFields, '');
    const policy: Policy = { apiVersion: auditApiVersion, kind: 'Policy', rules: [] };
    const metadata = getOwn(doc, 'metadata');
    if (metadata !== undefined && metadata !== null) {
      if (!isJsonObject(metadata)) throw decodingError('metadata', 'must be an object');
      policy.metadata = metadata;
    }
    const rules = getOwn(doc, 'rules');
    if (rules !== undefined && rules !== null) {
      if (!Array.isArray(rules)) throw decodingError('rules', 'must be a list');
      policy.rules = rules.map((r, i) => this.rule(r, `rules[${i}]`));
    }
    const omitStages = stringList(doc, 'omitStages', '');
    if (omitStages) policy.omitStages = omitStages as Stage[];
    const omitManagedFields = bool(doc, 'omitManagedFields', '');
    if (omitManagedFields !== undefined) policy.omitManagedFields = omitManagedFields;
    return policy;
  }

  private rule(v: unknown, path: string): PolicyRule {
    if (!isJsonObject(v)) throw decodingError(path, 'must be an object');
    this.collectUnknown(v, ruleFields, path);
    const level = getOwn(v, 'level');
    if (level !== undefined && level !== null && typeof level !== 'string') throw decodingError(`${path}.level`, 'must be a string');
    // An absent level stays "" so validation reports it as required, as upstream does.
    const rule: PolicyRule = { level: (level ?? '') as Level };
    for (const key of ['users', 'userGroups', 'verbs', 'namespaces', 'nonResourceURLs', 'omitStages'] as const) {
      const list = stringList(v, key, path);
      if (list) (rule as unknown as Record<string, string[]>)[key] = list;
    }
    const resources = getOwn(v, 'resources');
    if (resources !== undefined && resources !== null) {
      if (!Array.isArray(resources)) throw decodingError(`${path}.resources`, 'must be a list');
      rule.resources = resources.map((gr, i) => this.groupResources(gr, `${path}.resources[${i}]`));
    }
    const omitManagedFields = bool(v, 'omitManagedFields', path);
    if (omitManagedFields !== undefined) rule.omitManagedFields = omitManagedFields;
    return rule;
  }

  private groupResources(v: unknown, path: string): GroupResources {
    if (!isJsonObject(v)) throw decodingError(path, 'must be an object');
    this.collectUnknown(v, groupResourcesFields, path);
    const gr: GroupResources = {};
    const group = getOwn(v, 'group');
    if (group !== undefined && group !== null) {
      if (typeof group !== 'string') throw decodingError(`${path}.group`, 'must be a string');
      gr.group = group;
    }
    const resources = stringList(v, 'resources', path);
    if (resources) gr.resources = resources;
    const resourceNames = stringList(v, 'resourceNames', path);
    if (resourceNames) gr.resourceNames = resourceNames;
    return gr;
  }

  private collectUnknown(o: object, known: ReadonlySet<string>, path: string): void {
    for (const k of Object.keys(o)) if (!known.has(k)) this.unknown.push(join(path, k));
  }
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function decodingError(path: string, what: string): PolicyLoadError {
  return new PolicyLoadError(`failed decoding: ${path ? `${path}: ` : ''}${what}`);
}

function stringList(o: object, key: string, path: string): string[] | undefined {
  const v = getOwn(o, key);
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw decodingError(join(path, key), 'must be a list of strings');
  return v as string[];
}

function bool(o: object, key: string, path: string): boolean | undefined {
  const v = getOwn(o, key);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw decodingError(join(path, key), 'must be a boolean');
  return v;
}

/** Upstream's ValidatePolicy: field errors for the policy-wide stages and every rule. */
export function validatePolicy(policy: Policy): FieldError[] {
  const errs = validateOmitStages(policy.omitStages, new FieldPath('omitStages'));
  const rulesPath = new FieldPath('rules');
  policy.rules.forEach((rule, i) => errs.push(...validateRule(rule, rulesPath.index(i))));
  return errs;
}

function validateRule(rule: PolicyRule, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const levelPath = path.child('level').toString();
  if ((rule.level as string) === '') errs.push(fieldErr.required(levelPath));
  else if (!isLevel(rule.level)) errs.push(fieldErr.notSupported(levelPath, rule.level, levels));
  errs.push(...validateNonResourceURLs(rule.nonResourceURLs ?? [], path.child('nonResourceURLs')));
  errs.push(...validateResources(rule.resources ?? [], path.child('resources')));
  errs.push(...validateOmitStages(rule.omitStages, path.child('omitStages')));
  if (rule.nonResourceURLs?.length && (rule.resources?.length || rule.namespaces?.length)) {
    errs.push(
      fieldErr.invalid(path.child('nonResourceURLs').toString(), rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'),
    );
  }
  return errs;
}

function validateNonResourceURLs(urls: readonly string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  urls.forEach((url, i) => {
    if (url === '*') return;
    const p = path.index(i).toString();
    if (!url.startsWith('/')) errs.push(fieldErr.invalid(p, url, "non-resource URL rules must begin with a '/' character"));
    if (url !== '' && url.slice(0, -1).includes('*')) {
      errs.push(fieldErr.invalid(p, url, "non-resource URL wildcards '*' must be the final character of the rule"));
    }
  });
  return errs;
}

function validateResources(list: readonly GroupResources[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const gr of list) {
    // Upstream reports these at "resources.group" without the entry's index; kept for fidelity.
    if (gr.group) {
      const msgs = nameIsDNSSubdomain(gr.group, false);
      if (msgs.length) errs.push(fieldErr.invalid(path.child('group').toString(), gr.group, msgs.join(',')));
    }
    if (gr.resourceNames?.length && !gr.resources?.length) {
      errs.push(fieldErr.invalid(path.child('resourceNames').toString(), gr.resourceNames, 'using resourceNames requires at least one resource'));
    }
  }
  return errs;
}

function validateOmitStages(list: readonly string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (list ?? []).forEach((stage, i) => {
    if (!isStage(stage)) errs.push(fieldErr.invalid(path.index(i).toString(), stage, `allowed stages are ${stages.join(',')}`));
  });
  return errs;
}
