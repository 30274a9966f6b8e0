// Field selectors (the fieldSelector query parameter) as upstream's fields package: AND-ed
// `f=v`, `f==v`, `f!=v` terms with `\` escaping `,` `=` `\` in values. Syntax errors and
// unsupported fields are 400s (watch-and-list.md §9); the unsupported-field text is per resource.
import { errors } from './errors';
import { goQuote } from './goStrconv';

export interface FieldRequirement {
  readonly field: string;
  /** `==` is stored as `=` (upstream keeps no difference). */
  readonly operator: '=' | '!=';
  readonly value: string;
}

export class FieldSelector {
  /** Terms in upstream's order (sorted by their raw text). */
  readonly requirements: readonly FieldRequirement[];

  constructor(requirements: readonly FieldRequirement[]) {
    this.requirements = requirements;
  }

  static everything(): FieldSelector {
    return new FieldSelector([]);
  }

  /** A selector of `field=value` terms, in the given order. */
  static fromSet(fields: Readonly<Record<string, string>>): FieldSelector {
    return new FieldSelector(Object.entries(fields).map(([field, value]) => ({ field, operator: '=', value })));
  }

  isEmpty(): boolean {
    return this.requirements.length === 0;
  }

  /** A missing field reads as "" (so `f!=x` matches objects without f). */
  matches(fields: Readonly<Record<string, string>>): boolean {
    return this.requirements.every((r) => {
      const v = Object.prototype.hasOwnProperty.call(fields, r.field) ? fields[r.field] : '';
      return r.operator === '=' ? v === r.value : v !== r.value;
    });
  }

  /** The value of the first `field=value` term for this field, if any. */
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }

  /** This selector with one more `field=value` term (e.g. the name of a single-object watch). */
  and(field: string, value: string): FieldSelector {
    return new FieldSelector([...this.requirements, { field, operator: '=', value }]);
  }

  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
}

/** The name a selector pins with `metadata.name=X` (single-object watches, key lookups). */
export function selectedName(sel: FieldSelector): string | undefined {
  return sel.requiresExactMatch('metadata.name');
}

/** The namespace a selector pins with `metadata.namespace=X` (narrows an all-namespace list). */
export function selectedNamespace(sel: FieldSelector): string | undefined {
  return sel.requiresExactMatch('metadata.namespace');
}

export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw errors.badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      // Go prints the rune with %v, i.e. its code point number.
      throw errors.badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  if (inSlash) throw errors.badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Commas split terms unless escaped; the backslashes stay in the terms. */
function splitTerms(selector: string): string[] {
  if (selector === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

const termOperators = ['!=', '==', '='] as const;

function splitTerm(term: string): { lhs: string; op: (typeof termOperators)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** Parses a fieldSelector (syntax only; see validateFieldSelector for the supported fields). */
export function parseFieldSelector(selector: string): FieldSelector {
  const parts = splitTerms(selector).sort();
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw errors.badRequest(`invalid selector: '${selector}'; can't understand '${part}'`);
    reqs.push({ field: t.lhs, operator: t.op === '!=' ? '!=' : '=', value: unescapeValue(t.rhs) });
  }
  return new FieldSelector(reqs);
}

/** What a resource accepts in field selectors, and its text for any other field. */
export interface FieldSelectorSupport {
  readonly fields: readonly string[];
  readonly unsupported: (field: string) => string;
}

/** The text of resources with their own field-label conversion (CSR, Namespace). */
export function fieldLabelNotSupported(field: string): string {
  return `field label not supported: ${field}`;
}

/** The text of the default metadata-only conversion (e.g. ServiceAccount). */
export function notAKnownFieldSelector(field: string): string {
  return `${goQuote(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`;
}

/** Field support of resources that only have the metadata fields. */
export const metadataOnlyFieldSelectors: FieldSelectorSupport = {
  fields: ['metadata.name', 'metadata.namespace'],
  unsupported: notAKnownFieldSelector,
};

/** Rejects (400) the first term, in selector order, whose field the resource does not support. */
export function validateFieldSelector(sel: FieldSelector, support: FieldSelectorSupport): FieldSelector {
  for (const r of sel.requirements) {
    if (!support.fields.includes(r.field)) throw errors.badRequest(support.unsupported(r.field));
  }
  return sel;
}
