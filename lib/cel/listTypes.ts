// Lists typed `x-kubernetes-list-type: set` or `map` (spec §4.10.5, upstream
// apiserver/pkg/cel/common/values.go unstructuredSetList/unstructuredMapList): equality ignores
// order (map lists: elements matched by their keys) and `+` is a union (sets) or a merge where
// the right side's element wins for an equal key (map lists). As upstream, the left operand's
// type decides. The arrays stay plain Arrays (cel-js treats them as lists) and carry their list
// type under a symbol.
import { celEquals } from './library/compare';

const listTypeKey = Symbol('celListType');

export type ListSemantics = { type: 'set' } | { type: 'map'; keys: readonly string[] };

export function tagList<T extends unknown[]>(list: T, semantics: ListSemantics): T {
  Object.defineProperty(list, listTypeKey, { value: semantics, enumerable: false });
  return list;
}

export function listSemanticsOf(v: unknown): ListSemantics | undefined {
  return Array.isArray(v) ? ((v as unknown as Record<symbol, ListSemantics | undefined>)[listTypeKey]) : undefined;
}

function mapKey(keys: readonly string[], e: unknown): string {
  const o = (e ?? {}) as Record<string, unknown>;
  return JSON.stringify(keys.map((k) => {
    const v = o[k];
    return typeof v === 'bigint' ? `${v}n` : v;
  }));
}

/** `left == right` when left is a set or map list; undefined when plain list semantics apply. */
export function typedListEquals(left: unknown, right: unknown): boolean | undefined {
  const t = listSemanticsOf(left);
  if (!t || !Array.isArray(right)) return undefined;
  const l = left as unknown[];
  if (l.length !== right.length) return false;
  if (t.type === 'set') return right.every((x) => l.some((y) => celEquals(y, x)));
  const byKey = new Map(l.map((e) => [mapKey(t.keys, e), e]));
  return right.every((x) => {
    const k = mapKey(t.keys, x);
    return byKey.has(k) && celEquals(byKey.get(k), x);
  });
}

/** `left + right` when left is a set or map list; undefined when plain concatenation applies. */
export function typedListAdd(left: unknown, right: unknown): unknown[] | undefined {
  const t = listSemanticsOf(left);
  if (!t || !Array.isArray(right)) return undefined;
  const out = [...(left as unknown[])];
  if (t.type === 'set') {
    for (const x of right) if (!out.some((y) => celEquals(y, x))) out.push(x);
    return tagList(out, t);
  }
  const index = new Map(out.map((e, i) => [mapKey(t.keys, e), i]));
  for (const x of right) {
    const k = mapKey(t.keys, x);
    const at = index.get(k);
    if (at === undefined) {
      index.set(k, out.length);
      out.push(x);
    } else out[at] = x;
  }
  return tagList(out, t);
}
