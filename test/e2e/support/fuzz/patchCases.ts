// Patches: every patch type with garbage, JSON Patch operations with bad paths (built from the
// schema's field paths), merge and strategic merge patches that replace metadata with scalars,
// and strategic-merge directives used wrongly.
import type { FuzzCase } from './fuzzCase';
import { nestedArrays, pointerToken } from './jsonText';
import type { Prng } from './prng';
import { schemaFields } from './schemaFields';
import type { FuzzTarget } from './targets';

export const patchContentTypes = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

const garbage = ['', '{', '[', 'null', '5', '"s"', 'true', '[]', '{}', '[{}]', '[null]', '[5]', '{"a":', 'metadata: {}', '\u0000', nestedArrays(50), '{"op":"add"}'];

export function patchGarbageCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const t of targets) {
    for (const ct of patchContentTypes) {
      for (const g of garbage) {
        // Against a victim: "{}" is a fine merge patch, "[]" and "null" fine JSON patches.
        out.push({ name: `patch/garbage ${ct.split('/')[1]}`, method: 'PATCH', path: t.item(rng.pick(t.victims)), headers: { 'Content-Type': ct }, body: Buffer.from(g) });
      }
      const junk = rng.bytes(rng.int(1, 200));
      out.push({ name: `patch/junk ${ct.split('/')[1]}`, method: 'PATCH', path: t.item(rng.pick(t.victims)), headers: { 'Content-Type': ct }, body: junk });
    }
    for (const ct of ['application/json', 'application/yaml', 'text/plain', '', 'application/merge-patch+json; charset=utf-16', 'application/json-patch+json;q=0', 'application/*']) {
      out.push({ name: `patch/content-type ${JSON.stringify(ct)}`, method: 'PATCH', path: t.item(rng.pick(t.victims)), headers: ct ? { 'Content-Type': ct } : undefined, body: Buffer.from('{"metadata":{"annotations":{"x":"y"}}}') });
    }
  }
  return out;
}

/** Pointers derived from the schema's field paths, broken in the ways RFC 6901 forbids. */
function badPointers(rng: Prng, t: FuzzTarget): string[] {
  const fields = schemaFields(t.info.schema);
  const out: string[] = ['', '/', 'metadata', 'metadata/name', '~', '/~', '/~2', '/~01', '/metadata/~', '/metadata/labels/~2x', '//', '/metadata//name', '/metadata/name/x', '/kind/0', '/-', '/metadata/-', '/metadata/finalizers/-1', '/metadata/finalizers/01', '/metadata/finalizers/999', '/metadata/finalizers/1e2', '/metadata/finalizers/0x1', `/metadata/finalizers/${'9'.repeat(30)}`, '/metadata/labels/' + 'k'.repeat(5000)];
  for (const { path } of rng.sample(fields, 12)) {
    const ptr = '/' + path.map(pointerToken).join('/');
    out.push(ptr + '/deeper/still', ptr.replace(/\/0(\/|$)/, '/99$1'), ptr.replace(/\/0(\/|$)/, '/-1$1'), ptr.toUpperCase(), ptr.replace(/~1/g, '/'));
  }
  return out;
}

export function jsonPatchCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const ct = { 'Content-Type': 'application/json-patch+json' };
  const out: FuzzCase[] = [];
  for (const t of targets) {
    const ops = ['add', 'remove', 'replace', 'move', 'copy', 'test'];
    for (const ptr of badPointers(rng, t)) {
      const op = rng.pick(ops);
      const o: Record<string, unknown> = { op, path: ptr };
      if (op === 'move' || op === 'copy') o.from = rng.pick(['/metadata', '/metadata/name', '/nope', ptr, '']);
      if (op !== 'remove' && rng.chance(0.8)) o.value = rng.pick(['x', 5, null, {}, [], { a: [1] }]);
      out.push({ name: `patch/json-pointer ${op} ${ptr.slice(0, 40)}`, method: 'PATCH', path: t.item(rng.pick(t.victims)), headers: ct, body: Buffer.from(JSON.stringify([o])) });
    }
    const victimOps: unknown[] = [
      [{ op: 'frobnicate', path: '/metadata' }],
      [{ path: '/metadata/name', value: 'x' }],
      [{ op: 5, path: '/metadata' }],
      [{ op: 'add', path: 5, value: 1 }],
      [{ op: 'move', from: '/metadata', path: '/metadata/labels' }],
      [{ op: 'copy', from: '/metadata', path: '/metadata/labels/x' }],
      [{ op: 'copy', from: '/nope', path: '/metadata/annotations' }],
      [{ op: 'remove', path: '/metadata' }],
      [{ op: 'remove', path: '/apiVersion' }],
      [{ op: 'remove', path: '/kind' }],
      [{ op: 'add', path: '/metadata/name', value: 'renamed' }],
      [{ op: 'add', path: '/metadata/namespace', value: 'other' }],
      [{ op: 'add', path: '/metadata/uid', value: 'x' }],
      [{ op: 'add', path: '/metadata/resourceVersion', value: 'abc' }],
      [{ op: 'add', path: '/metadata/creationTimestamp', value: 'yesterday' }],
      [{ op: 'add', path: '/metadata/deletionTimestamp', value: '2000-01-01T00:00:00Z' }],
      [{ op: 'add', path: '/metadata/ownerReferences', value: [{}] }],
      [{ op: 'add', path: '/metadata/managedFields', value: [{ fieldsV1: 5 }] }],
      [{ op: 'replace', path: '', value: { metadata: {} } }],
      [{ op: 'add', path: '/metadata/labels', value: { ['a'.repeat(64)]: 'v' } }],
      Array.from({ length: 200 }, (_, i) => ({ op: 'copy', from: '/metadata', path: `/x${i}` })),
      Array.from({ length: 50 }, (_, i) => ({ op: 'copy', from: i ? `/x${i - 1}` : '/metadata', path: `/x${i}/m${i}` })),
    ];
    for (const ops of victimOps) out.push({ name: `patch/json ${JSON.stringify(ops).slice(0, 60)}`, method: 'PATCH', path: t.item(rng.pick(t.victims)), headers: ct, body: Buffer.from(JSON.stringify(ops)) });
    // Certain failures, aimed at the sentinel.
    const failing: unknown[] = [
      [{ op: 'test', path: '/kind', value: 'NotThisKind' }],
      [{ op: 'test', path: '/metadata/name', value: 5 }],
      [{ op: 'add', path: '/metadata/annotations/x', value: 'y' }, { op: 'test', path: '/metadata/annotations/x', value: 'z' }],
      [{ op: 'replace', path: '', value: 5 }],
      [{ op: 'replace', path: '', value: [] }],
      [{ op: 'add', path: '', value: 'scalar' }],
      [{ op: 'add', path: '/metadata', value: 5 }],
      [{ op: 'add', path: '/metadata', value: 'x' }],
      [{ op: 'add', path: '/metadata', value: [] }],
      [{ op: 'add', path: '/metadata/name/x', value: 1 }],
      [{ op: 'add', path: '/nope/deeper', value: 1 }],
      [{ op: 'remove', path: '/metadata/nope' }],
      [{ op: 'remove', path: '/nope/nope' }],
      [{ op: 'add', path: '/metadata/finalizers/5', value: 'x' }],
      [{ op: 'frobnicate', path: '/metadata' }],
      [{ op: 'add', path: '/metadata/labels', value: 'scalar' }],
      [{ op: 'add', path: '/metadata/annotations/x', value: 'y' }, { op: 'remove', path: '/does/not/exist' }],
    ];
    for (const ops of failing) out.push({ name: `patch/json failing ${JSON.stringify(ops).slice(0, 60)}`, method: 'PATCH', path: t.item(t.sentinel), headers: ct, body: Buffer.from(JSON.stringify(ops)), mustFail: true });
  }
  return out;
}

/** Merge and strategic merge patches replacing metadata (or its maps) with scalars, and bad directives. */
export function mergePatchCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  const scalars = ['5', '"x"', 'true', '[]', '[1]', '1e400', '"{}"'];
  for (const t of targets) {
    for (const ct of ['application/merge-patch+json', 'application/strategic-merge-patch+json']) {
      for (const s of scalars) {
        for (const body of [`{"metadata":${s}}`, `{"metadata":{"labels":${s === '[]' ? '[1]' : s}}}`, `{"metadata":{"name":${s}}}`, `{"apiVersion":${s}}`, `{"kind":${s === '"x"' ? '"Pod"' : s}}`]) {
          out.push({ name: `patch/${ct.split('/')[1]} scalar metadata`, method: 'PATCH', path: t.item(t.sentinel), headers: { 'Content-Type': ct }, body: Buffer.from(body), mustFail: true });
        }
      }
      const uncertain = [
        '{"metadata":null}',
        '{"metadata":{"name":null}}',
        '{"metadata":{"name":"renamed"}}',
        '{"metadata":{"namespace":"other"}}',
        '{"metadata":{"resourceVersion":"abc"}}',
        '{"metadata":{"resourceVersion":"1"}}',
        '{"metadata":{"uid":"x"}}',
        '{"metadata":{"generation":-1}}',
        '{"metadata":{"labels":null,"annotations":null}}',
        '{"apiVersion":null,"kind":null}',
        '{"$patch":"delete"}',
        '{"$patch":"replace"}',
        '{"$patch":"bogus"}',
        '{"$patch":5}',
        '{"metadata":{"$patch":"replace"}}',
        '{"metadata":{"$patch":"delete"}}',
        '{"metadata":{"finalizers":[{"$patch":"delete"}]}}',
        '{"metadata":{"$setElementOrder/finalizers":5}}',
        '{"metadata":{"$setElementOrder/finalizers":[5,{}]}}',
        '{"metadata":{"$deleteFromPrimitiveList/finalizers":"x"}}',
        '{"metadata":{"$deleteFromPrimitiveList/finalizers":[{}]}}',
        '{"metadata":{"$retainKeys":5}}',
        '{"metadata":{"$retainKeys":["name",5]}}',
        '{"$retainKeys":["metadata"]}',
        '{"metadata":{"ownerReferences":[{"$patch":"delete"}]}}',
        '{"metadata":{"ownerReferences":[{"uid":5}]}}',
        '{"metadata":{"ownerReferences":[{"$patch":"merge","uid":"a"}]}}',
        '{"metadata":{"$setElementOrder/ownerReferences":[{"uid":"a"},{"uid":"a"}]}}',
        '{"metadata":{"managedFields":[{"fieldsV1":5}]}}',
        '{"metadata":{"annotations":{"$patch":"delete"}}}',
        '{"$setElementOrder/metadata":[]}',
        '{"secrets":[{"name":"a"},{"name":"a"}]}',
        '{"secrets":[{"$patch":"delete"}]}',
        '{"secrets":[{"$patch":"replace"}]}',
        '{"$setElementOrder/secrets":[{"name":5}]}',
        '{"spec":{"usages":[{"$patch":"delete"}]}}',
        '{"spec":{"$setElementOrder/usages":"x"}}',
        '{"status":{"conditions":[{"type":null}]}}',
        '{"status":{"conditions":[{"$patch":"delete","type":"Approved"}]}}',
        '{"spec":{"finalizers":[null]}}',
      ];
      for (const body of uncertain) out.push({ name: `patch/${ct.split('/')[1]} ${body.slice(0, 50)}`, method: 'PATCH', path: t.item(rng.pick(t.victims)), headers: { 'Content-Type': ct }, body: Buffer.from(body) });
      // Patches through the subresources too.
      for (const sub of t.info.subresources.filter((s) => s.verbs.includes('patch'))) {
        out.push({ name: `patch/${ct.split('/')[1]} ${sub.name} scalar`, method: 'PATCH', path: `${t.item(t.sentinel)}/${sub.name}`, headers: { 'Content-Type': ct }, body: Buffer.from(`{"metadata":${rng.pick(scalars)}}`), mustFail: true });
        out.push({ name: `patch/${ct.split('/')[1]} ${sub.name} directive`, method: 'PATCH', path: `${t.item(rng.pick(t.victims))}/${sub.name}`, headers: { 'Content-Type': ct }, body: Buffer.from(rng.pick(uncertain)) });
      }
    }
  }
  return out;
}
