// YAML request bodies, read as upstream does (sigs.k8s.io/yaml): the first document is
// converted to JSON (duplicate keys: the last wins), and a strict pass reports every
// duplicate key as `line N: key "k" already set in map`. The resolution schema is YAML 1.2
// core (DESIGN.md §2b: `yes` stays a string) plus `<<` merge keys, which Go's YAML has.
import { CORE_SCHEMA, constructFromEvents, Event, EVENT_ID, getScalarValue, mergeTag, parseEvents, realMapTag, YAMLException } from 'js-yaml';
import type { GoJsonNode } from '../machinery/goJson';
import { goFormatFloat } from '../machinery/goFormat';
import { goFloatText } from '../machinery/goJson';
import { goQuote } from '../machinery/goStrconv';

const loadSchema = CORE_SCHEMA.withTags(mergeTag, realMapTag);

/** A last guard against alias expansion blowing up the converted document. */
const maxNodes = 5_000_000;

export class YAMLSyntaxError extends Error {}

export interface YAMLTree {
  root: GoJsonNode;
  /** Go's strict-mode error text (`yaml: unmarshal errors:\n  line …`), if any key repeats. */
  duplicateKeys?: string;
  /** The same, one `line N: key "k" already set in map` per repeat (upstream's warnings). */
  duplicateKeyErrors?: string[];
}

function lineOf(src: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < src.length; i++) if (src.charCodeAt(i) === 0x0a) line++;
  return line;
}

/** Walks the first document's events and lists repeated mapping keys with their lines. */
function findDuplicateKeys(src: string, events: readonly Event[]): string[] {
  type Frame = { mapping: boolean; atKey: boolean; seen: Set<string> };
  const out: string[] = [];
  const stack: Frame[] = [];
  let docs = 0;
  const consumed = (): void => {
    const top = stack[stack.length - 1];
    if (top?.mapping) top.atKey = !top.atKey;
  };
  for (const ev of events) {
    switch (ev.type) {
      case EVENT_ID.DOCUMENT:
        if (docs++ > 0) return out;
        stack.push({ mapping: false, atKey: false, seen: new Set() });
        break;
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE:
        stack.push({ mapping: ev.type === EVENT_ID.MAPPING, atKey: true, seen: new Set() });
        break;
      case EVENT_ID.POP:
        stack.pop();
        consumed();
        break;
      case EVENT_ID.SCALAR: {
        const top = stack[stack.length - 1];
        if (top?.mapping && top.atKey) {
          const key = getScalarValue(src, ev);
          if (key !== '<<' && top.seen.has(key)) out.push(`line ${lineOf(src, ev.valueStart)}: key ${goQuote(key)} already set in map`);
          top.seen.add(key);
        }
        consumed();
        break;
      }
      case EVENT_ID.ALIAS:
        consumed();
        break;
    }
  }
  return out;
}

/**
 * Go's yaml decoder refuses an alias inside the value of its own anchor (`&a [*a]`); js-yaml
 * would build a cycle. Returns the anchor's name, found from the first document's events.
 */
function selfContainingAnchor(src: string, events: readonly Event[]): string | undefined {
  type Frame = { open: boolean };
  const stack: Frame[] = [];
  // The node each anchor name refers to now (a later definition shadows an earlier one).
  const latest = new Map<string, Frame | null>();
  let docs = 0;
  const nameOf = (ev: { anchorStart: number; anchorEnd: number }): string | undefined =>
    ev.anchorStart >= 0 ? src.slice(ev.anchorStart, ev.anchorEnd) : undefined;
  for (const ev of events) {
    switch (ev.type) {
      case EVENT_ID.DOCUMENT:
        if (docs++ > 0) return undefined;
        stack.push({ open: true });
        break;
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE: {
        const frame = { open: true };
        const name = nameOf(ev);
        if (name !== undefined) latest.set(name, frame);
        stack.push(frame);
        break;
      }
      case EVENT_ID.SCALAR: {
        const name = nameOf(ev);
        if (name !== undefined) latest.set(name, null);
        break;
      }
      case EVENT_ID.ALIAS: {
        const name = nameOf(ev);
        if (name !== undefined && latest.get(name)?.open) return name;
        break;
      }
      case EVENT_ID.POP: {
        const frame = stack.pop();
        if (frame) frame.open = false;
        break;
      }
    }
  }
  return undefined;
}

/** Go's yaml decoder: how much of a document may come from alias expansion (allowedAliasRatio). */
function allowedAliasRatio(decodeCount: number): number {
  const low = 400_000;
  const high = 4_000_000;
  if (decodeCount <= low) return 0.99;
  if (decodeCount >= high) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - low) / (high - low));
}

/** Nesting after alias expansion; the parser's own limit applies to the text. */
const maxExpandedDepth = 1000;

interface Conversion {
  /** Hard cap on nodes produced, whatever the ratio says. */
  budget: number;
  decodeCount: number;
  aliasCount: number;
  /** Collections met so far: meeting one again means an alias is being expanded. */
  seen: Set<object>;
}

/** Go's %+#v of a decoded YAML value (sigs.k8s.io/yaml prints the value of a key it refuses). */
function goYamlValue(v: unknown, inside = false): string {
  if (v === null || v === undefined) return inside ? 'interface {}(nil)' : '<nil>';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return Number.isInteger(v) ? goFloatText(v) : goFormatFloat(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goYamlValue(x, true)).join(', ')}}`;
  if (v instanceof Map) return `map[interface {}]interface {}{${[...v].map(([k, x]) => `${goYamlValue(k, true)}:${goYamlValue(x, true)}`).join(', ')}}`;
  return String(v);
}

/**
 * sigs.k8s.io/yaml's key conversion (convertToJSONableObject): JSON keys are strings, so ints
 * are written in decimal, floats as strconv.FormatFloat(k, 'g', -1, 32) with the infinities
 * and NaN in YAML's spelling, bools as true/false; a null key is refused. (A whole number is
 * taken for an int: the YAML parser does not say whether `1e6` was written as a float.)
 */
function keyString(k: unknown, value: unknown): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'boolean') return String(k);
  if (typeof k === 'number') {
    if (Number.isNaN(k)) return '.nan';
    if (!Number.isFinite(k)) return k > 0 ? '.inf' : '-.inf';
    return Number.isInteger(k) ? goFloatText(k) : goFormatFloat(k, 32);
  }
  if (k === null || k === undefined) throw new YAMLSyntaxError(`unsupported map key of type: %!s(<nil>), key: <nil>, value: ${goYamlValue(value)}`);
  return String(k);
}

function toNode(v: unknown, c: Conversion, depth: number, inAlias: boolean): GoJsonNode {
  // Go counts every node it decodes, and those reached through an alias separately.
  c.decodeCount++;
  if (inAlias) c.aliasCount++;
  if (
    --c.budget < 0 ||
    (c.aliasCount > 100 && c.decodeCount > 1000 && c.aliasCount / c.decodeCount > allowedAliasRatio(c.decodeCount))
  ) {
    throw new YAMLSyntaxError('yaml: document contains excessive aliasing');
  }
  if (depth > maxExpandedDepth) throw new YAMLSyntaxError(`yaml: nesting exceeded maxDepth (${maxExpandedDepth})`);
  if (v === null || v === undefined) return { kind: 'null' };
  if (typeof v === 'string') return { kind: 'string', value: v };
  if (typeof v === 'boolean') return { kind: 'bool', value: v };
  if (typeof v === 'number') {
    // Go's JSON encoder refuses these while converting the YAML to JSON.
    if (!Number.isFinite(v)) throw new YAMLSyntaxError(`json: unsupported value: ${Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf'}`);
    return { kind: 'number', text: goFloatText(v) };
  }
  if (Array.isArray(v) || v instanceof Map) {
    const alias = inAlias || c.seen.has(v);
    c.seen.add(v);
    if (Array.isArray(v)) return { kind: 'array', items: v.map((x) => toNode(x, c, depth + 1, alias)) };
    const members: { key: string; value: GoJsonNode }[] = [];
    for (const [k, x] of v) {
      if (k !== null && typeof k === 'object') throw new YAMLSyntaxError(`json: unsupported type: map[interface {}]interface {}`);
      // The key is a node Go decodes too.
      c.decodeCount++;
      if (alias) c.aliasCount++;
      members.push({ key: keyString(k, x), value: toNode(x, c, depth + 1, alias) });
    }
    return { kind: 'object', members };
  }
  return { kind: 'string', value: String(v) };
}

/** Parses a YAML body; throws YAMLSyntaxError with upstream-style text (`yaml: line N: …`). */
export function parseYAML(text: string, strict: boolean): YAMLTree {
  let events: Event[];
  let docs: unknown[];
  try {
    events = parseEvents(text, { maxDepth: 1000 });
    docs = constructFromEvents(events, { source: text, schema: loadSchema, json: true });
  } catch (e) {
    if (e instanceof YAMLException) {
      const line = e.mark ? `line ${e.mark.line + 1}: ` : '';
      throw new YAMLSyntaxError(`yaml: ${line}${e.reason}`);
    }
    throw e;
  }
  const loop = selfContainingAnchor(text, events);
  if (loop !== undefined) throw new YAMLSyntaxError(`yaml: anchor '${loop}' value contains itself`);
  // An empty document is null, which decodes to an empty object.
  // Go counts the document node itself first.
  const conversion: Conversion = { budget: maxNodes, decodeCount: 1, aliasCount: 0, seen: new Set() };
  const root = docs.length ? toNode(docs[0], conversion, 0, false) : ({ kind: 'null' } as const);
  if (!strict) return { root };
  const dups = findDuplicateKeys(text, events);
  return dups.length ? { root, duplicateKeys: `yaml: unmarshal errors:\n  ${dups.join('\n  ')}`, duplicateKeyErrors: dups } : { root };
}
