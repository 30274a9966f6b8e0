// Request bodies: wrong types in every schema field, garbage and truncated JSON, YAML alias
// bombs, 10,000-deep nesting, huge numbers, invalid UTF-8, NUL bytes, BOMs, Protobuf garbage,
// bodies of the wrong kind, empty bodies and bodies just over the size limit.
import { apiVersionOf, protobufMediaType, protobufMediaTypeAliases } from '../../../../lib/api';
import { encodeProtobuf, encodeProtobufEnvelope } from '../../../../lib/codec/protobuf';
import type { FuzzCase } from './fuzzCase';
import { rawRequest } from './fuzzCase';
import { jsonWithRaw, nestedArrays, nestedObjects, pointerToken, rawSlot } from './jsonText';
import type { Prng } from './prng';
import { pathString, schemaFields, setAtPath } from './schemaFields';
import type { FuzzTarget } from './targets';
import { wrongLiterals } from './wrongValues';

const json = { 'Content-Type': 'application/json' };
const yamlCt = { 'Content-Type': 'application/yaml' };
const protobufTypes = [protobufMediaType, ...protobufMediaTypeAliases];

/** Go's limit: 10,000 levels parse, one more does not. */
export const maxJsonDepth = 10_000;

function newName(rng: Prng): string {
  return `fz-${rng.token(10)}`;
}

function hasStatus(t: FuzzTarget): boolean {
  return t.info.subresources.some((s) => s.name === 'status' && s.verbs.includes('update'));
}

/**
 * A wrong-typed literal at a field, sent one of several ways. Every way must fail: create,
 * update of the sentinel, merge and strategic merge patches of the sentinel, JSON patch
 * replace/add, and PUT of the status subresource.
 */
export function wrongTypeCases(rng: Prng, targets: readonly FuzzTarget[], perField: number): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const t of targets) {
    for (const { path, field } of schemaFields(t.info.schema)) {
      const literals = wrongLiterals(field);
      if (!literals.length) continue;
      const chosen = [literals[0], ...rng.sample(literals.slice(1), perField - 1)];
      for (const lit of chosen) {
        const name = `body/wrong-type ${t.info.kind}.${pathString(path)}=${lit}`;
        const ways = ['create', 'update', 'merge', 'strategic', 'jsonpatch', ...(hasStatus(t) ? ['status'] : [])] as const;
        // Patches carry numbers as float64 upstream too, so 1e2 can become a valid 100 there: whole bodies only.
        const way = lit === literals[0] || lit === '1e2' ? rng.pick(['create', 'update'] as const) : rng.pick(ways);
        if (way === 'create' || way === 'update' || way === 'status') {
          const obj = way === 'create' ? t.template(newName(rng), 'new') : t.template(t.sentinel, 'sentinel');
          setAtPath(obj, path, rawSlot);
          const target = way === 'create' ? t.collection : way === 'update' ? t.item(t.sentinel) : `${t.item(t.sentinel)}/status`;
          out.push({ name, method: way === 'create' ? 'POST' : 'PUT', path: target, headers: json, body: Buffer.from(jsonWithRaw(obj, lit)), mustFail: true });
        } else if (way === 'jsonpatch') {
          // One add of the whole top-level field (add makes no missing parents), holding the wrong value.
          const top = path[0] as string;
          const holder: Record<string, unknown> = {};
          setAtPath(holder, path, rawSlot);
          const op = `{"op":"add","path":${JSON.stringify(`/${pointerToken(top)}`)},"value":${jsonWithRaw(holder[top], lit)}}`;
          out.push({ name, method: 'PATCH', path: t.item(t.sentinel), headers: { 'Content-Type': 'application/json-patch+json' }, body: Buffer.from(`[${op}]`), mustFail: true });
        } else {
          const patch: Record<string, unknown> = {};
          setAtPath(patch, path, rawSlot);
          const ct = way === 'merge' ? 'application/merge-patch+json' : 'application/strategic-merge-patch+json';
          out.push({ name, method: 'PATCH', path: t.item(t.sentinel), headers: { 'Content-Type': ct }, body: Buffer.from(jsonWithRaw(patch, lit)), mustFail: true });
        }
      }
    }
  }
  return out;
}

/** Truncations, byte flips, junk and near-JSON of valid bodies. */
export function garbageJsonCases(rng: Prng, targets: readonly FuzzTarget[], count: number): FuzzCase[] {
  const out: FuzzCase[] = [];
  const nearJson = [
    '{',
    '}',
    '[',
    '{"metadata":',
    '{"metadata":{"name":"x"}}garbage',
    '{"metadata":{"name":"x"}} {"metadata":{"name":"y"}}',
    "{'metadata':{'name':'x'}}",
    '{"metadata":{"name":"x",}}',
    '{"metadata":{"name":"x"} // comment\n}',
    '{"metadata":{"name":"x"},"x":NaN}',
    '{"metadata":{"name":"x"},"x":Infinity}',
    '{"metadata":{"name":"x"},"x":-}',
    '{"metadata":{"name":"x"},"x":01}',
    '{"metadata":{"name":"x"},"x":1.}',
    '{"metadata":{"name":"x"},"x":.5}',
    '{"metadata":{"name":"x"},"x":1e}',
    '{"metadata":{"name":"x"},"x":0x10}',
    '{"metadata":{"name":"x"},"x":"\\x41"}',
    '{"metadata":{"name":"x"},"x":"\\u12"}',
    '{"metadata":{"name":"x"},"x":"unterminated}',
    '{"metadata":{"name":"x\n"}}',
    '{"metadata":{"name":"x"},"x":tru}',
    '{"metadata":{"name":"x"},"x":nul}',
    '{"metadata" {"name":"x"}}',
    '{"metadata":{"name":"x"}]',
    '{"metadata":{"name":"x"}}}',
    '{"":{"":{"":""}}}',
    '{"metadata":{"name":"x"},"metadata":{"name":"y"}}',
    '{"metadata":{"name":"x","name":"y"}}',
    '{"apiVersion":"v1","apiVersion":"v2"}',
    '\u0000\u0001\u0002',
    ' ',
    '\t\r\n',
  ];
  for (const text of nearJson) {
    const t = rng.pick(targets);
    out.push({ name: 'body/near-json', method: 'POST', path: t.collection, headers: json, body: Buffer.from(text) });
  }
  for (let i = 0; i < count; i++) {
    const t = rng.pick(targets);
    const valid = Buffer.from(JSON.stringify(t.template(t.sentinel, 'sentinel')));
    const mode = rng.pick(['truncate', 'flip', 'junk', 'splice'] as const);
    let body: Buffer;
    let mustFail = false;
    if (mode === 'truncate') {
      // A compact object cut anywhere before its last byte is never valid JSON.
      body = valid.subarray(0, rng.int(1, valid.length - 1));
      mustFail = true;
    } else if (mode === 'flip') {
      body = Buffer.from(valid);
      for (let n = rng.int(1, 4); n > 0; n--) body[rng.int(0, body.length - 1)] = rng.int(0, 255);
    } else if (mode === 'junk') {
      body = rng.bytes(rng.int(1, 512));
      mustFail = body[0] !== 0x7b && body[0] !== 0x20;
    } else {
      const at = rng.int(1, valid.length - 1);
      body = Buffer.concat([valid.subarray(0, at), rng.bytes(rng.int(1, 16)), valid.subarray(at)]);
    }
    // Only certainly-invalid bodies go to the sentinel; the rest to a victim or a create.
    const toSentinel = mustFail && rng.chance(0.5);
    const ct = rng.pick([json, json, yamlCt, { 'Content-Type': 'application/json; charset=utf-8' }]);
    const isJson = ct['Content-Type'].startsWith('application/json');
    out.push({
      name: `body/garbage-${mode}`,
      method: toSentinel || rng.chance(0.3) ? 'PUT' : 'POST',
      path: toSentinel ? t.item(t.sentinel) : rng.chance(0.5) ? t.collection : t.item(rng.pick(t.victims)),
      headers: ct,
      body,
      // Cut JSON may still be valid YAML ("{" is not, but a cut after a scalar can be).
      mustFail: mustFail && isJson,
    });
  }
  return out;
}

/** Billion laughs and friends: must be refused or bounded, never hang the server. */
export function yamlBombCases(targets: readonly FuzzTarget[]): FuzzCase[] {
  /** `under:` holding the classic anchors a0..a<levels>, each a list of `fan` aliases of the previous. */
  const laughs = (levels: number, fan: number, under: string, indent = ''): string => {
    const lines = ['a0: &a0 "lol"'];
    for (let i = 1; i <= levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: fan }, () => `*a${i - 1}`).join(',')}]`);
    return `${indent}${under}:\n${lines.map((l) => `${indent}  ${l}`).join('\n')}\n`;
  };
  const quadratic = `x: &x "${'y'.repeat(20_000)}"\nz: [${Array.from({ length: 2_000 }, () => '*x').join(',')}]\n`;
  const mergeBomb = ['m0: &m0 {a: 1, b: 2}']
    .concat(Array.from({ length: 20 }, (_, i) => `m${i + 1}: &m${i + 1}\n  <<: [*m${i}, *m${i}]\n  k${i}: [*m${i}, *m${i}]`))
    .join('\n');
  const out: FuzzCase[] = [];
  for (const t of targets) {
    const header = `apiVersion: ${apiVersionOf(t.info)}\nkind: ${t.info.kind}\nmetadata:\n  name: fz-bomb-${t.info.resource}\n`;
    const bodies: [string, string][] = [
      ['billion-laughs-unknown-field', `${header}${laughs(9, 10, 'bomb')}`],
      ['billion-laughs-annotations', `${header}${laughs(9, 10, 'annotations', '  ')}`],
      ['billion-laughs-top', laughs(12, 10, 'bomb')],
      ['wide-laughs', `${header}${laughs(3, 1000, 'bomb')}`],
      ['quadratic-blowup', `${header}${quadratic}`],
      ['merge-key-bomb', `${header}${mergeBomb}\n`],
      ['self-alias', `${header}loop: &l [*l]\n`],
      ['deep-flow', `${header}deep: ${nestedArrays(10_000)}\n`],
      ['deep-block', `${header}deep:\n${Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}x\n`],
      ['alias-chain', `${header}${Array.from({ length: 3_000 }, (_, i) => (i ? `c${i}: &c${i} [*c${i - 1}]` : 'c0: &c0 [x]')).join('\n')}\n`],
      ['alias-depth', `${header}a: &a ${nestedArrays(600, '1')}\nb: ${nestedArrays(600, '*a')}\n`],
    ];
    for (const [what, text] of bodies) {
      out.push({ name: `body/yaml-${what}`, method: 'POST', path: t.collection, headers: yamlCt, body: Buffer.from(text), identity: 'admin' });
    }
    out.push({ name: 'body/yaml-bomb-put', method: 'PUT', path: t.item(t.sentinel), headers: yamlCt, body: Buffer.from(`${laughs(9, 10, 'bomb')}metadata: [*a9]\n`), identity: 'admin', mustFail: true });
  }
  return out;
}

/** Nesting at exactly Go's depth limit (must parse or be refused, never crash) and one past it. */
export function deepNestingCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  const push = (c: Omit<FuzzCase, 'identity'>): void => void out.push({ ...c, identity: 'admin' });
  for (const t of targets) {
    const base = t.template(newName(rng), 'new');
    // Depth counts every container; the wrapper object adds one level (two with metadata.annotations).
    const inWrapper = (inner: (d: number) => string, extraLevels: number): string =>
      jsonWithRaw({ ...base, deep: rawSlot }, inner(maxJsonDepth - extraLevels));
    const variants: [string, string, boolean][] = [
      ['arrays-top', nestedArrays(maxJsonDepth), true],
      ['objects-top', nestedObjects(maxJsonDepth), false],
      ['arrays-unknown-field', inWrapper((d) => nestedArrays(d), 1), false],
      ['objects-unknown-field', inWrapper((d) => nestedObjects(d), 1), false],
      ['arrays-past-limit', inWrapper((d) => nestedArrays(d + 1), 1), true],
      ['objects-past-limit', nestedObjects(maxJsonDepth + 1), true],
      ['annotation-value', jsonWithRaw({ ...base, metadata: { name: (base.metadata as { name: string }).name, annotations: { a: rawSlot } } }, nestedArrays(maxJsonDepth - 3)), true],
      ['managed-fields', jsonWithRaw({ ...base, metadata: { ...(base.metadata as object), managedFields: [{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: rawSlot }] } }, nestedObjects(maxJsonDepth - 5, 'f:x', '{}')), false],
    ];
    for (const [what, text, mustFail] of variants) {
      push({ name: `body/deep-${what}`, method: 'POST', path: t.collection, headers: json, body: Buffer.from(text), mustFail });
    }
    push({ name: 'body/deep-put-sentinel', method: 'PUT', path: t.item(t.sentinel), headers: json, body: Buffer.from(nestedObjects(maxJsonDepth, 'metadata')), mustFail: true });
    // A free-form value (FieldsV1) is stored as sent: deep ones must be refused, not break the store.
    const victimName = rng.pick(t.victims);
    const fields = (depth: number): Buffer =>
      Buffer.from(jsonWithRaw({ ...t.template(victimName, 'victim'), metadata: { name: victimName, managedFields: [{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: rawSlot }] } }, nestedObjects(depth, 'f:a', '{}')));
    for (const depth of [500, 3_000, maxJsonDepth - 5]) push({ name: `body/deep-fields-v1 ${depth}`, method: 'PUT', path: t.item(victimName), headers: json, body: fields(depth) });
    push({
      name: 'patch/deep-fields-v1',
      method: 'PATCH',
      path: t.item(victimName),
      headers: { 'Content-Type': 'application/json-patch+json' },
      body: Buffer.from(`[{"op":"add","path":"/metadata/managedFields","value":[{"manager":"m","fieldsV1":${nestedArrays(1_200)}}]}]`),
    });
    const victim = rng.pick(t.victims);
    for (const ct of ['application/merge-patch+json', 'application/strategic-merge-patch+json']) {
      push({ name: `patch/deep-unknown ${ct}`, method: 'PATCH', path: t.item(victim), headers: { 'Content-Type': ct }, body: Buffer.from(jsonWithRaw({ deep: rawSlot }, nestedObjects(maxJsonDepth - 1))) });
      push({ name: `patch/deep-metadata ${ct}`, method: 'PATCH', path: t.item(t.sentinel), headers: { 'Content-Type': ct }, body: Buffer.from(jsonWithRaw({ metadata: { labels: rawSlot } }, nestedArrays(maxJsonDepth - 2))), mustFail: true });
      push({ name: `patch/deep-arrays ${ct}`, method: 'PATCH', path: t.item(t.sentinel), headers: { 'Content-Type': ct }, body: Buffer.from(nestedArrays(maxJsonDepth)), mustFail: true });
    }
    push({
      name: 'patch/deep-jsonpatch-value',
      method: 'PATCH',
      path: t.item(victim),
      headers: { 'Content-Type': 'application/json-patch+json' },
      body: Buffer.from(`[{"op":"add","path":"/deep","value":${nestedObjects(maxJsonDepth - 2)}}]`),
    });
    push({
      name: 'patch/deep-jsonpatch-test',
      method: 'PATCH',
      path: t.item(t.sentinel),
      headers: { 'Content-Type': 'application/json-patch+json' },
      body: Buffer.from(`[{"op":"test","path":"/metadata","value":${nestedArrays(maxJsonDepth - 2)}}]`),
      mustFail: true,
    });
  }
  return out;
}

/** Numbers beyond every range, and numbers in places no number belongs. */
export function hugeNumberCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const literals = ['1e400', '-1e400', '1e-400', '9'.repeat(400), '-' + '9'.repeat(400), '0.' + '0'.repeat(400) + '1', '1.7976931348623157e309', '4.9e-325', '1' + '0'.repeat(5000)];
  const out: FuzzCase[] = [];
  for (const lit of literals) {
    const t = rng.pick(targets);
    const base = t.template(newName(rng), 'new');
    out.push({ name: `body/huge-number unknown=${lit.slice(0, 20)}`, method: 'POST', path: t.collection, headers: json, body: Buffer.from(jsonWithRaw({ ...base, x: rawSlot }, lit)) });
    out.push({ name: `body/huge-number name=${lit.slice(0, 20)}`, method: 'POST', path: t.collection, headers: json, body: Buffer.from(jsonWithRaw({ ...base, metadata: { name: rawSlot } }, lit)), mustFail: true });
    out.push({ name: `body/huge-number yaml=${lit.slice(0, 20)}`, method: 'POST', path: t.collection, headers: yamlCt, body: Buffer.from(`metadata:\n  name: fz-${rng.token(6)}\n  generation: ${lit}\nx: ${lit}\n`) });
  }
  return out;
}

/** Invalid UTF-8, NUL bytes and byte-order marks, in JSON and YAML. */
export function encodingCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const bad: [string, Buffer][] = [
    ['ff', Buffer.from([0xff])],
    ['fe-ff', Buffer.from([0xfe, 0xff])],
    ['overlong-nul', Buffer.from([0xc0, 0x80])],
    ['overlong-slash', Buffer.from([0xc0, 0xaf])],
    ['surrogate', Buffer.from([0xed, 0xa0, 0x80])],
    ['cut-3-byte', Buffer.from([0xe2, 0x82])],
    ['continuation', Buffer.from([0x80, 0x80])],
    ['raw-nul', Buffer.from([0x00])],
    ['5-byte', Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80])],
  ];
  const escapes = ['\\u0000', '\\ud800', '\\udc00x', '\\ud800\\ud800', '\\uffff', '\\u202e'];
  const out: FuzzCase[] = [];
  for (const t of targets) {
    for (const [what, bytes] of bad) {
      for (const where of ['name', 'label', 'annotation', 'key'] as const) {
        const name = newName(rng);
        const obj = t.template(name, 'new');
        const meta = obj.metadata as Record<string, unknown>;
        if (where === 'name') meta.name = rawSlot;
        else if (where === 'label') (meta.labels as Record<string, unknown>).l = rawSlot;
        else if (where === 'annotation') meta.annotations = { a: rawSlot };
        else meta.annotations = { [rawSlot]: 'v' };
        const [pre, post] = JSON.stringify(obj).split(rawSlot);
        const body = Buffer.concat([Buffer.from(pre), Buffer.from('x'), bytes, Buffer.from('y'), Buffer.from(post)]);
        const ct = rng.pick([json, yamlCt]);
        // Invalid bytes become U+FFFD (JSON) or are refused (YAML); an annotation key holding either is invalid.
        out.push({ name: `body/utf8-${what} in ${where}`, method: 'POST', path: t.collection, headers: ct, body, mustFail: where === 'key' || undefined });
      }
    }
    for (const esc of escapes) {
      const obj = t.template(newName(rng), 'new');
      (obj.metadata as Record<string, unknown>).annotations = { a: rawSlot };
      const text = JSON.stringify(obj).replace(JSON.stringify(rawSlot), `"${esc}"`);
      out.push({ name: `body/escape ${esc} in annotation`, method: 'POST', path: t.collection, headers: json, body: Buffer.from(text) });
      const named = JSON.stringify(t.template(newName(rng), 'new')).replace(/"name":"([^"]*)"/, `"name":"$1${esc}"`);
      out.push({ name: `body/escape ${esc} in name`, method: 'POST', path: t.collection, headers: json, body: Buffer.from(named) });
    }
    const valid = JSON.stringify(t.template(newName(rng), 'new'));
    const yamlText = `metadata:\n  name: ${newName(rng)}\n`;
    const boms: [string, Buffer, Record<string, string>][] = [
      ['utf8-bom-json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(valid)]), json],
      ['utf8-bom-yaml', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(yamlText)]), yamlCt],
      ['utf16le-bom-json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(valid, 'utf16le')]), json],
      ['utf16le-bom-yaml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(yamlText, 'utf16le')]), yamlCt],
      ['utf16be-bom-json', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(valid, 'utf16le').swap16()]), json],
      ['utf32-bom-json', Buffer.concat([Buffer.from([0x00, 0x00, 0xfe, 0xff]), Buffer.from(valid)]), json],
      ['bom-mid-body', Buffer.from(valid.replace('"metadata"', '\ufeff"metadata"')), json],
      ['nul-prefix', Buffer.concat([Buffer.from([0]), Buffer.from(valid)]), json],
      ['nul-suffix', Buffer.concat([Buffer.from(valid), Buffer.from([0])]), json],
      ['nul-yaml', Buffer.from(`metadata:\n  name: a\u0000b\n`), yamlCt],
      ['utf16-json-no-bom', Buffer.from(valid, 'utf16le'), json],
    ];
    for (const [what, body, ct] of boms) {
      const toSentinel = what.endsWith('json') && what !== 'bom-mid-body' && rng.chance(0.5);
      out.push({ name: `body/${what}`, method: toSentinel ? 'PUT' : 'POST', path: toSentinel ? t.item(t.sentinel) : t.collection, headers: ct, body });
    }
  }
  return out;
}

/** Protobuf content types with garbage: random bytes, broken envelopes, corrupted messages. */
export function protobufCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
  const out: FuzzCase[] = [];
  for (const t of targets) {
    const valid = Buffer.from(encodeProtobuf(t.template(newName(rng), 'new'), t.info.schema, apiVersionOf(t.info), t.info.kind));
    const bodies: [string, Buffer][] = [
      ['empty', Buffer.alloc(0)],
      ['random', rng.bytes(rng.int(1, 300))],
      ['magic-only', magic],
      ['magic-short', magic.subarray(0, 3)],
      ['magic-random', Buffer.concat([magic, rng.bytes(rng.int(1, 200))])],
      ['huge-length', Buffer.concat([magic, Buffer.from([0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])])],
      ['overlong-varint', Buffer.concat([magic, Buffer.from([0x08, ...Array(12).fill(0xff), 0x01])])],
      ['wrong-wire-type', Buffer.concat([magic, Buffer.from([0x0d, 1, 2, 3, 4])])],
      ['group-wire-type', Buffer.concat([magic, Buffer.from([0x0b, 0x0c])])],
      ['field-zero', Buffer.concat([magic, Buffer.from([0x00, 0x01])])],
      ['raw-garbage', Buffer.from(encodeProtobufEnvelope(apiVersionOf(t.info), t.info.kind, rng.bytes(64)))],
      ['raw-deep', Buffer.from(encodeProtobufEnvelope(apiVersionOf(t.info), t.info.kind, nestedMessage(200)))],
      ['deep-fields-v1', Buffer.from(encodeProtobufEnvelope(apiVersionOf(t.info), t.info.kind, metadataWithFieldsV1(`fz-${rng.token(8)}`, nestedArrays(maxJsonDepth))))],
      ['wrong-kind', Buffer.from(encodeProtobufEnvelope('v1', 'Pod', valid.subarray(magic.length)))],
      ['json-as-protobuf', Buffer.from(JSON.stringify(t.template(newName(rng), 'new')))],
      ['truncated', valid.subarray(0, rng.int(magic.length + 1, valid.length - 1))],
    ];
    for (let i = 0; i < 4; i++) {
      const b = Buffer.from(valid);
      for (let n = rng.int(1, 3); n > 0; n--) b[rng.int(magic.length, b.length - 1)] = rng.int(0, 255);
      bodies.push([`flipped-${i}`, b]);
    }
    for (const [what, body] of bodies) {
      const ct = rng.pick(protobufTypes);
      const way = rng.pick(['POST', 'PUT'] as const);
      out.push({
        name: `body/protobuf-${what}`,
        method: way,
        path: way === 'POST' ? t.collection : t.item(rng.pick(t.victims)),
        headers: { 'Content-Type': ct },
        body,
      });
    }
  }
  return out;
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** A length-delimited field: tag, length, bytes. */
function lenField(field: number, bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(varint((field << 3) | 2)), Buffer.from(varint(bytes.length)), bytes]);
}

/** An object message holding only metadata {1: name, 17: managedFields[{1: manager, 7: FieldsV1{1: raw JSON}}]}. */
function metadataWithFieldsV1(name: string, rawJson: string): Buffer {
  const entry = Buffer.concat([lenField(1, Buffer.from('fuzz')), lenField(7, lenField(1, Buffer.from(rawJson)))]);
  return lenField(1, Buffer.concat([lenField(1, Buffer.from(name)), lenField(17, entry)]));
}

/** A length-delimited field 1 nested n times (an unknown field at every level). */
function nestedMessage(n: number): Buffer {
  let b = Buffer.from([0x08, 0x01]);
  for (let i = 0; i < n; i++) {
    const len: number[] = [];
    let v = b.length;
    while (v >= 0x80) {
      len.push((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    len.push(v);
    b = Buffer.concat([Buffer.from([0x7a]), Buffer.from(len), b]);
  }
  return b;
}

/** Bodies of another kind or apiVersion than the endpoint's. */
export function wrongKindCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const t of targets) {
    for (const other of targets) {
      if (other === t) continue;
      const body = other.template(newName(rng), 'new');
      out.push({ name: `body/kind ${other.info.kind} to ${t.info.resource}`, method: 'POST', path: t.collection, headers: json, body: Buffer.from(JSON.stringify(body)), mustFail: true });
      out.push({ name: `body/kind ${other.info.kind} to ${t.info.resource} sentinel`, method: 'PUT', path: t.item(t.sentinel), headers: json, body: Buffer.from(JSON.stringify({ ...body, metadata: { name: t.sentinel } })), mustFail: true });
    }
    const versions = ['v2', 'v1beta1', `${t.info.group || 'core'}/v1`, 'nope.svc.io/v1', 'a/b/c', 'v1/', ' v1', 'V1', '\u0000'];
    for (const v of versions) {
      if (v === apiVersionOf(t.info)) continue;
      const body = { ...t.template(t.sentinel, 'sentinel'), apiVersion: v };
      const create = rng.chance(0.5);
      out.push({ name: `body/apiVersion ${JSON.stringify(v)}`, method: create ? 'POST' : 'PUT', path: create ? t.collection : t.item(t.sentinel), headers: json, body: Buffer.from(JSON.stringify(body)), mustFail: true });
    }
    // Upstream's ParseGroupVersion reads "/" as empty (defaulted) and "/v1" as the core group: maybe valid.
    for (const v of ['/', `/${t.info.version}`, '']) {
      out.push({ name: `body/apiVersion ${JSON.stringify(v)}`, method: 'POST', path: t.collection, headers: json, body: Buffer.from(JSON.stringify({ ...t.template(newName(rng), 'new'), apiVersion: v })) });
    }
    for (const k of ['Status', 'List', `${t.info.kind}List`, t.info.kind.toLowerCase(), 'DeleteOptions', ' ', `${t.info.kind}\u0000`]) {
      const body = { ...t.template(t.sentinel, 'sentinel'), kind: k };
      out.push({ name: `body/kind ${JSON.stringify(k)}`, method: 'PUT', path: t.item(t.sentinel), headers: json, body: Buffer.from(JSON.stringify(body)), mustFail: true });
    }
  }
  return out;
}

/** Empty bodies under every body content type. */
export function emptyBodyCases(targets: readonly FuzzTarget[]): FuzzCase[] {
  const cts = ['application/json', 'application/yaml', protobufMediaType, '', 'application/merge-patch+json', 'application/json-patch+json', 'application/strategic-merge-patch+json'];
  const out: FuzzCase[] = [];
  for (const t of targets) {
    for (const ct of cts) {
      const headers = ct ? { 'Content-Type': ct } : undefined;
      out.push({ name: `body/empty ${ct || 'no content type'}`, method: 'POST', path: t.collection, headers, body: Buffer.alloc(0), mustFail: true });
      out.push({ name: `body/empty ${ct || 'no content type'}`, method: 'PUT', path: t.item(t.sentinel), headers, body: Buffer.alloc(0), mustFail: true });
      out.push({ name: `body/empty ${ct || 'no content type'}`, method: 'PATCH', path: t.item(t.sentinel), headers, body: Buffer.alloc(0), mustFail: true });
    }
  }
  return out;
}

/** Bodies one byte over --max-request-bytes (declared, and streamed chunked without a length): 413. */
export function oversizeCases(rng: Prng, targets: readonly FuzzTarget[], limit: number): FuzzCase[] {
  const out: FuzzCase[] = [];
  const padded = (t: FuzzTarget, name: string, size: number): Buffer => {
    const obj = t.template(name, 'new');
    (obj.metadata as Record<string, unknown>).annotations = { pad: rawSlot };
    const empty = jsonWithRaw(obj, '""').length;
    return Buffer.from(jsonWithRaw(obj, JSON.stringify('p'.repeat(size - empty))));
  };
  for (const t of targets) {
    const over = padded(t, newName(rng), limit + 1);
    if (over.length !== limit + 1) throw new Error(`padding arithmetic: ${over.length} for ${t.info.kind}`);
    out.push({ name: 'body/over-limit create', method: 'POST', path: t.collection, headers: json, body: over, expectStatus: 413, identity: 'admin' });
    out.push({ name: 'body/over-limit update', method: 'PUT', path: t.item(t.sentinel), headers: json, body: padded(t, t.sentinel, limit + 1), expectStatus: 413, identity: 'admin' });
    out.push({ name: 'body/over-limit merge patch', method: 'PATCH', path: t.item(t.sentinel), headers: { 'Content-Type': 'application/merge-patch+json' }, body: Buffer.from(`{"metadata":{"annotations":{"pad":"${'p'.repeat(limit)}"}}}`), expectStatus: 413, identity: 'admin' });
    out.push({ name: 'body/over-limit json patch ops', method: 'PATCH', path: t.item(t.sentinel), headers: { 'Content-Type': 'application/json-patch+json' }, body: Buffer.from(`[${Array.from({ length: 10_001 }, () => '{"op":"test","path":"/kind","value":"X"}').join(',')}]`), expectStatus: 413, identity: 'admin' });
    out.push({ name: 'body/over-limit yaml', method: 'POST', path: t.collection, headers: yamlCt, body: Buffer.from(`metadata:\n  name: ${newName(rng)}\n  annotations:\n    pad: ${'p'.repeat(limit)}\n`), expectStatus: 413, identity: 'admin' });
    out.push({ name: 'body/at-limit', method: 'POST', path: t.collection, headers: json, body: padded(t, newName(rng), limit), identity: 'admin' });
    // Streamed without a length: the server only learns the size by reading.
    const chunked = chunkedBody(padded(t, newName(rng), limit + 1), 4096);
    out.push({
      name: 'body/over-limit chunked',
      method: 'POST',
      path: t.collection,
      raw: { bytes: rawRequest('POST', t.collection, [['Host', 'fuzz'], ['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked'], ['Connection', 'close']], chunked) },
      expectStatus: 413,
      identity: 'admin',
    });
    out.push({
      name: 'body/over-limit declared, short body',
      method: 'POST',
      path: t.collection,
      raw: { bytes: rawRequest('POST', t.collection, [['Host', 'fuzz'], ['Content-Type', 'application/json'], ['Content-Length', String(limit + 1)]], '{}'), halfClose: true },
      expectStatus: 413,
      identity: 'admin',
    });
  }
  return out;
}

export function chunkedBody(body: Buffer, size: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) {
    const c = body.subarray(i, i + size);
    parts.push(Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}
