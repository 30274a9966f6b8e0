// Upstream compares rules and selectors with equality.Semantic.DeepEqual, under which a nil list or
// map equals an empty one. On the wire that is an absent field versus [] or {}; this treats them
// alike. Meant for PolicyRule and LabelSelector, whose fields are all lists, maps and strings.
import { deepEqual } from '../../machinery/deepEqual';

export function semanticEqual(a: unknown, b: unknown): boolean {
  return deepEqual(normalize(a), normalize(b));
}

function isEmptyCollection(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}

function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined || isEmptyCollection(x)) continue;
    out[k] = normalize(x);
  }
  return out;
}
