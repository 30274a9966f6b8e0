// Seeded write requests with mutated bodies, one generator per body type: JSON Patch, JSON
// merge patch, strategic merge patch, server-side apply (YAML and JSON text, CBOR), PUT and
// POST. Each starts from a valid body of its target's kind and breaks it with 1-3 mutations
// (jsonMutations.ts); JSON Patch carries the mutated values in operations and has mutations of
// its own operations too.
import type { JsonObject, JsonValue } from '../../../machinery/jsonValue';
import { deepCopy } from '../../../machinery/deepCopy';
import { isJsonObject, setOwn } from '../../../machinery/jsonValue';
import { duplicateKey, writeCbor, writeJson, writeYaml, writtenKey } from './fuzzDocument';
import { mutateBody, mutationClasses, plausible, type MutationClass } from './jsonMutations';
import type { PatchTarget } from './patchTargets';
import type { Prng } from './prng';

export const bodyTypes = ['json-patch', 'merge-patch', 'strategic-merge-patch', 'apply-yaml', 'apply-json', 'apply-cbor', 'update', 'create'] as const;
export type BodyType = (typeof bodyTypes)[number];

/** Mutations of the request as a whole: JSON Patch operations, the body's top-level shape, YAML and CBOR syntax. */
export const requestClasses = ['json-patch-op', 'root-shape', 'yaml-syntax', 'cbor-bytes'] as const;
export type RequestClass = MutationClass | (typeof requestClasses)[number];

export interface FuzzRequest {
  bodyType: BodyType;
  /** The mutations applied, first the one the body was made for. */
  classes: RequestClass[];
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

const contentTypes: Record<BodyType, string> = {
  'json-patch': 'application/json-patch+json',
  'merge-patch': 'application/merge-patch+json',
  'strategic-merge-patch': 'application/strategic-merge-patch+json',
  'apply-yaml': 'application/apply-patch+yaml',
  'apply-json': 'application/apply-patch+yaml',
  'apply-cbor': 'application/apply-patch+cbor',
  update: 'application/json',
  create: 'application/json',
};

const isApply = (t: BodyType): boolean => t.startsWith('apply-');

/** The whole object of the target's kind with a plausible status (subresources write it). */
function wholeObject(rng: Prng, t: PatchTarget, name: string): JsonObject {
  const obj = t.object(name);
  const status = t.info.schema.fields.status;
  if (status && rng.chance(t.subresource ? 0.8 : 0.2)) setOwn(obj, 'status', plausible(rng, status));
  return obj;
}

/** A partial object as a merge or strategic merge patch sends it: some fields, some metadata. */
function partialObject(rng: Prng, whole: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(whole)) {
    if ((k === 'apiVersion' || k === 'kind') && !rng.chance(0.2)) continue;
    if (!rng.chance(0.6)) continue;
    const v = whole[k];
    if (k === 'metadata' && isJsonObject(v)) {
      const meta: JsonObject = {};
      for (const mk of Object.keys(v)) if (mk !== 'name' && mk !== 'namespace' && rng.chance(0.5)) setOwn(meta, mk, v[mk]);
      setOwn(out, k, meta);
    } else setOwn(out, k, v);
  }
  if (!Object.keys(out).length) out.metadata = { labels: { fuzz: `v${rng.int(0, 9)}` } };
  return out;
}

function pickClasses(rng: Prng, allowed: readonly RequestClass[]): RequestClass[] {
  const n = rng.chance(0.7) ? 1 : rng.chance(0.65) ? 2 : 3;
  return Array.from({ length: n }, () => rng.pick(allowed));
}

/** The classes a body type can be broken by. */
function classesFor(type: BodyType): RequestClass[] {
  const body = mutationClasses.filter((c) => c !== 'cbor-item' || type === 'apply-cbor');
  const extra: RequestClass[] = ['root-shape'];
  if (type === 'json-patch') extra.push('json-patch-op', 'json-patch-op', 'json-patch-op');
  if (type === 'apply-yaml' || type === 'update' || type === 'create') extra.push('yaml-syntax', 'yaml-syntax');
  if (type === 'apply-cbor') extra.push('cbor-bytes', 'cbor-bytes');
  return [...body, ...extra];
}

/** Mutations for one body (a class that finds nothing to break is swapped for another). */
function mutate(rng: Prng, body: JsonObject, t: PatchTarget, classes: RequestClass[]): RequestClass[] {
  const done: RequestClass[] = [];
  for (const c of classes) {
    if ((requestClasses as readonly string[]).includes(c)) {
      done.push(c);
      continue;
    }
    let cls = c as MutationClass;
    for (let tries = 0; tries < 5 && !mutateBody(rng, body, t.info.schema, cls); tries++) cls = rng.pick(mutationClasses.filter((x) => x !== 'cbor-item'));
    done.push(cls);
  }
  return done;
}

/** A body that is not an object at all. */
const rootShapes: readonly JsonValue[] = [[], [{}], ['x'], 5, 0.5, 'x', '', true, null, [[]]];

/** YAML the JSON model cannot say: anchors and aliases, tags, non-string keys, merge keys, documents, special floats. */
const yamlSnippets = [
  'x: &a [1, 2]\ny: *a',
  'x: *nowhere',
  '<<: {metadata: 5}',
  '<<: [*a]',
  '? [a, b]\n: c',
  '? {a: b}\n: c',
  '1: x',
  '1.5: x',
  'true: x',
  '~: x',
  'null: x',
  '.inf: x',
  'x: .nan',
  'x: -.inf',
  'x: !!binary AAE=',
  'x: !!set {a, b}',
  'x: !!omap [a: 1]',
  'x: !!timestamp 2001-12-14',
  'x: 2001-12-14t21:59:43.10-05:00',
  'x: !!float 1',
  'x: !!int "7"',
  'x: !!str 5',
  'x: !custom 1',
  'x: 0o17',
  'x: 0x1F',
  'x: 1_000',
  'x: 0b101',
  'x: "\\ud800"',
  'x: "\\x00"',
  'x: |\n  a\n b',
  'x:\tfoo',
  '---\nfoo: bar',
  '...',
  '%YAML 1.1\n---',
  'x: [',
  'x: {a: 1, a: 2}',
  'x: @',
];

function yamlSyntax(rng: Prng, text: string): string {
  const snippet = rng.pick(yamlSnippets);
  // At the top level, or as the first member of metadata when it is a block map.
  const meta = text.indexOf('\nmetadata:\n');
  if (meta >= 0 && rng.chance(0.5)) {
    const at = meta + '\nmetadata:\n'.length;
    return text.slice(0, at) + snippet.split('\n').map((l) => `  ${l}`).join('\n') + '\n' + text.slice(at);
  }
  return rng.chance(0.5) ? `${snippet}\n${text}` : `${text.replace(/\n?$/, '\n')}${snippet}\n`;
}

const interestingBytes = [0x00, 0x17, 0x18, 0x1b, 0x1f, 0x3f, 0x40, 0x5f, 0x60, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc2, 0xd6, 0xd9, 0xf4, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xff];

/** A CBOR body with a few bytes overwritten, inserted, repeated or cut off. */
function cborBytes(rng: Prng, body: Buffer): Buffer {
  const b = Buffer.from(body);
  const at = rng.int(3, Math.max(3, b.length - 1));
  switch (rng.int(0, 3)) {
    case 0:
      for (let i = rng.int(1, 3); i > 0; i--) b[rng.int(3, b.length - 1)] = rng.chance(0.5) ? rng.pick(interestingBytes) : rng.int(0, 255);
      return b;
    case 1:
      return b.subarray(0, at);
    case 2:
      return Buffer.concat([b.subarray(0, at), b.subarray(at, at + rng.int(1, 16)), b.subarray(at)]);
    default:
      return Buffer.concat([b.subarray(0, at), Buffer.from([rng.pick(interestingBytes)]), b.subarray(at)]);
  }
}

// ---- JSON Patch ----

function pointerToken(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Every path into a value (containers and leaves), to a depth of 4. */
function pathsOf(v: JsonValue, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (prefix.length) out.push(prefix);
  if (prefix.length >= 4) return out;
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...prefix, i], out));
  else if (isJsonObject(v)) for (const k of Object.keys(v)) pathsOf(v[k], [...prefix, k], out);
  return out;
}

function valueAt(v: JsonValue, path: readonly (string | number)[]): JsonValue {
  let cur: JsonValue = v;
  for (const step of path) cur = Array.isArray(cur) ? cur[step as number] : (cur as JsonObject)[step as string];
  return cur;
}

/** Operations that turn the live object into the mutated one, roughly (add/replace/test/remove/copy/move at its paths). */
function operationsFor(rng: Prng, mutated: JsonObject): JsonObject[] {
  const paths = pathsOf(mutated);
  const ops: JsonObject[] = [];
  for (let i = rng.int(1, 4); i > 0 && paths.length; i--) {
    const path = rng.pick(paths);
    // A repeated key is written under its plain name.
    const pointer = '/' + path.map((p) => pointerToken(typeof p === 'string' ? writtenKey(p) : p)).join('/');
    const value = valueAt(mutated, path);
    const op = rng.pick(['add', 'add', 'replace', 'replace', 'test', 'remove', 'copy', 'move']);
    const o: JsonObject = { op, path: pointer };
    if (op === 'copy' || op === 'move') o.from = '/' + rng.pick(paths).map(pointerToken).join('/');
    else if (op !== 'remove') o.value = value;
    ops.push(o);
  }
  return ops;
}

const opShapes: readonly ((rng: Prng, op: JsonObject) => JsonValue)[] = [
  (rng, op) => ({ ...op, op: rng.pick([5, null, true, {}, [], '', 'ADD', 'frobnicate', 'add ', '_get']) }),
  (rng, op) => ({ ...op, path: rng.pick([5, null, true, {}, [], '', 'metadata', '/', '//', '/~', '/~2', '/-', '/metadata/-', '/metadata/finalizers/-1', '/metadata/finalizers/01', '/metadata/finalizers/1e3', '/metadata/labels/__proto__', '/__proto__/x', '/constructor/prototype', '/metadata/constructor', `/${'a/'.repeat(300)}a`]) }),
  (rng, op) => ({ ...op, from: rng.pick([5, null, {}, '', '/', '/nope', '/metadata', '/metadata/__proto__', '/constructor']) }),
  (_rng, op) => Object.fromEntries(Object.entries(op).filter(([k]) => k !== 'value')),
  (_rng, op) => Object.fromEntries(Object.entries(op).filter(([k]) => k !== 'path')),
  (rng, op) => ({ ...op, [rng.pick(['extra', 'Value', 'OP', '__proto__'])]: 'x' }),
  (rng, op) => ({ ...op, [duplicateKey(rng.pick(['op', 'path', 'value', 'from']))]: rng.pick(['remove', '/metadata', 5, null]) }),
  (rng) => rng.pick([5, 'x', null, true, [], [{}]]),
];

function jsonPatchBody(rng: Prng, mutated: JsonObject, classes: RequestClass[]): JsonValue {
  const ops: JsonValue[] = operationsFor(rng, mutated);
  if (classes.includes('json-patch-op')) {
    const i = rng.int(0, ops.length - 1);
    ops[i] = rng.pick(opShapes)(rng, ops[i] as JsonObject);
  }
  return ops;
}

// ---- Requests ----

function query(rng: Prng, type: BodyType): string {
  const q: string[] = [];
  if (isApply(type) || rng.chance(0.3)) q.push(`fieldManager=${rng.pick(['fuzzer', 'other', 'kubectl', 'kubectl-client-side-apply'])}`);
  if (rng.chance(0.6)) q.push(`fieldValidation=${rng.pick(['Strict', 'Warn', 'Ignore'])}`);
  if (isApply(type) && rng.chance(0.5)) q.push('force=true');
  if (rng.chance(0.1)) q.push('dryRun=All');
  return q.length ? `?${q.join('&')}` : '';
}

function encode(type: BodyType, value: JsonValue, yaml: boolean): Buffer {
  if (type === 'apply-cbor') return writeCbor(value);
  return Buffer.from(type === 'apply-yaml' || yaml ? writeYaml(value) : writeJson(value));
}

/** One request of body type `type` against a target chosen from `targets`. */
export function fuzzRequest(rng: Prng, type: BodyType, targets: readonly PatchTarget[]): FuzzRequest {
  const verb = type === 'create' ? 'create' : type === 'update' ? 'update' : 'patch';
  const eligible = targets.filter((t) => t.verbs.includes(verb) && (verb !== 'create' || !t.subresource));
  const t = rng.pick(eligible);
  const spare = isApply(type) || type === 'update' || type === 'create' ? t.spareNames : [];
  const name = rng.pick([...t.names, ...t.names, ...spare]);
  const whole = wholeObject(rng, t, name);
  const base = type === 'merge-patch' || type === 'strategic-merge-patch' ? partialObject(rng, whole) : whole;
  const classes = mutate(rng, base, t, pickClasses(rng, classesFor(type)));
  let value: JsonValue = type === 'json-patch' ? jsonPatchBody(rng, base, classes) : base;
  if (classes.includes('root-shape')) value = deepCopy(rng.pick(rootShapes));
  // PUT and POST bodies are YAML now and then (the same decoder path as JSON after parsing).
  const yaml = (type === 'update' || type === 'create') && (classes.includes('yaml-syntax') || rng.chance(0.1));
  const headers: Record<string, string> = { 'Content-Type': yaml ? 'application/yaml' : contentTypes[type], Accept: 'application/json' };
  let body = encode(type, value, yaml);
  if (classes.includes('yaml-syntax')) body = Buffer.from(yamlSyntax(rng, body.toString('utf8')));
  if (classes.includes('cbor-bytes')) body = cborBytes(rng, body);
  return {
    bodyType: type,
    classes,
    method: type === 'create' ? 'POST' : type === 'update' ? 'PUT' : 'PATCH',
    path: (type === 'create' ? t.collection : t.url(name)) + query(rng, type),
    headers,
    body,
  };
}
