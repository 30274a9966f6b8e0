// Label selectors (the labelSelector query parameter), parsed and matched as upstream's labels
// package does; parse errors carry upstream's texts (watch-and-list.md §10) in a 400.
import { errors } from './errors';
import { FieldError, fieldErr, renderFieldErrorList } from './fieldErrors';
import { goParseInt64 } from './goStrconv';
import { isQualifiedName, isValidLabelValue } from './validation/names';

export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Sorted and de-duplicated, as the parser builds them. */
  readonly values: readonly string[];
}

export class LabelSelector {
  /** Requirements sorted by key (upstream sorts for a deterministic string form). */
  readonly requirements: readonly LabelRequirement[];

  constructor(requirements: readonly LabelRequirement[]) {
    this.requirements = [...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  static everything(): LabelSelector {
    return new LabelSelector([]);
  }

  isEmpty(): boolean {
    return this.requirements.length === 0;
  }

  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    return this.requirements.every((r) => requirementMatches(r, labels ?? {}));
  }

  /** The value a requirement pins `key` to (=, ==, or `in` with one value), if any. */
  requiresExactMatch(key: string): string | undefined {
    const r = this.requirements.find((x) => x.key === key);
    if (!r) return undefined;
    if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
    return undefined;
  }

  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
}

function lookup(labels: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(labels, key) ? labels[key] : undefined;
}

function requirementMatches(r: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const v = lookup(labels, r.key);
  switch (r.operator) {
    case '=':
    case '==':
    case 'in':
      return v !== undefined && r.values.includes(v);
    case '!=':
    case 'notin':
      return v === undefined || !r.values.includes(v);
    case 'exists':
      return v !== undefined;
    case '!':
      return v === undefined;
    case 'gt':
    case 'lt': {
      if (v === undefined || r.values.length !== 1) return false;
      const have = goParseInt64(v);
      const want = goParseInt64(r.values[0]);
      if (!have.ok || !want.ok) return false;
      return r.operator === 'gt' ? have.value > want.value : have.value < want.value;
    }
  }
}

function requirementString(r: LabelRequirement): string {
  switch (r.operator) {
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
    case 'in':
    case 'notin':
      return `${r.key} ${r.operator} (${r.values.join(',')})`;
    case 'gt':
      return `${r.key}>${r.values.join(',')}`;
    case 'lt':
      return `${r.key}<${r.values.join(',')}`;
    default:
      return `${r.key}${r.operator}${r.values.join(',')}`;
  }
}

// ---- lexer (upstream's token set; a NUL character ends the input as in Go) ----

type Tok = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';

const literalTokens: ReadonlyMap<string, Tok> = new Map<string, Tok>([
  [')', ')'],
  [',', ','],
  ['!', '!'],
  ['==', '=='],
  ['=', '='],
  ['>', '>'],
  ['in', 'in'],
  ['<', '<'],
  ['!=', '!='],
  ['notin', 'notin'],
  ['(', '('],
]);

interface Scanned {
  tok: Tok;
  lit: string;
}

function isWhitespace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}
function isSpecial(c: string): boolean {
  return c === '=' || c === '!' || c === '(' || c === ')' || c === ',' || c === '>' || c === '<';
}

function lex(s: string): Scanned[] {
  const out: Scanned[] = [];
  let pos = 0;
  const read = (): string => (pos < s.length ? s[pos++] : '\0');
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    if (ch === '\0') {
      out.push({ tok: 'eos', lit: '' });
      return out;
    }
    if (isSpecial(ch)) {
      // Longest operator that is a known token ("!=", "==" before "!", "=").
      let buf = ch;
      const single = literalTokens.get(buf);
      let last: Scanned | undefined = single ? { tok: single, lit: buf } : undefined;
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (!isSpecial(c)) {
          pos--;
          break;
        }
        buf += c;
        const t = literalTokens.get(buf);
        if (t) last = { tok: t, lit: buf };
        else if (last) {
          pos--;
          break;
        }
      }
      out.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
      continue;
    }
    let buf = ch;
    for (;;) {
      const c = read();
      if (c === '\0') break;
      if (isSpecial(c) || isWhitespace(c)) {
        pos--;
        break;
      }
      buf += c;
    }
    out.push({ tok: literalTokens.get(buf) ?? 'id', lit: buf });
  }
}

// ---- parser (recursive descent as upstream; messages verbatim) ----

const binaryOperators = 'in, notin, =, ==, !=, gt, lt';

class Parser {
  private p = 0;
  constructor(private readonly items: Scanned[]) {}

  /** In value context the keywords in/notin are plain identifiers. */
  private look(values: boolean): Scanned {
    const it = this.items[this.p];
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id', lit: it.lit } : it;
  }
  private take(values: boolean): Scanned {
    const it = this.look(values);
    this.p++;
    return it;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.look(true);
      if (tok === 'id' || tok === '!') {
        let r: LabelRequirement;
        try {
          r = this.requirement();
        } catch (e) {
          throw new Error(`unable to parse requirement: ${(e as Error).message}`);
        }
        reqs.push(r);
        const t = this.take(true);
        if (t.tok === 'eos') return reqs;
        if (t.tok === ',') {
          const t2 = this.look(true);
          if (t2.tok !== 'id' && t2.tok !== '!') throw new Error(`found '${t2.lit}', expected: identifier after ','`);
        } else throw new Error(`found '${t.lit}', expected: ',' or 'end of string'`);
      } else if (tok === 'eos') return reqs;
      else throw new Error(`found '${lit}', expected: !, identifier, or 'end of string'`);
    }
  }

  private requirement(): LabelRequirement {
    let operator: LabelOperator | undefined;
    let t = this.take(true);
    if (t.tok === '!') {
      operator = '!';
      t = this.take(true);
    }
    if (t.tok !== 'id') throw new Error(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const keyErrs = isQualifiedName(key);
    // The parser validates the key with its (unset) path, which Go prints as "<nil>".
    if (keyErrs.length) throw new Error(renderFieldErrorList([fieldErr.invalid('<nil>', key, keyErrs.join('; '))]));
    const next = this.look(true).tok;
    // `!key` ends the requirement whatever follows; the caller then rejects a stray operator.
    if (operator === '!') return newRequirement(key, '!', []);
    if (next === 'eos' || next === ',') return newRequirement(key, 'exists', []);
    const op = this.operator();
    const values = op === 'in' || op === 'notin' ? this.setValues() : this.exactValue();
    return newRequirement(key, op, values);
  }

  private operator(): LabelOperator {
    const { tok, lit } = this.take(false);
    switch (tok) {
      case 'in':
        return 'in';
      case '=':
        return '=';
      case '==':
        return '==';
      case '>':
        return 'gt';
      case '<':
        return 'lt';
      case 'notin':
        return 'notin';
      case '!=':
        return '!=';
      default:
        throw new Error(`found '${lit}', expected: ${binaryOperators}`);
    }
  }

  private setValues(): string[] {
    const open = this.take(true);
    if (open.tok !== '(') throw new Error(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.look(true);
    if (tok === 'id' || tok === ',') return this.identifierList();
    if (tok === ')') {
      this.take(true);
      return [''];
    }
    throw new Error(`found '${lit}', expected: ',', ')' or identifier`);
  }

  private identifierList(): string[] {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.take(true);
      if (tok === 'id') {
        s.add(lit);
        const t2 = this.look(true);
        if (t2.tok === ',') continue;
        if (t2.tok === ')') {
          this.take(true);
          return [...s].sort();
        }
        throw new Error(`found '${t2.lit}', expected: ',' or ')'`);
      } else if (tok === ',') {
        if (s.size === 0) s.add('');
        const t2 = this.look(true).tok;
        if (t2 === ')') {
          s.add('');
          this.take(true);
          return [...s].sort();
        }
        if (t2 === ',') {
          // Release 1.32 consumes the second comma here, so "(a,,)" is an error.
          this.take(true);
          s.add('');
        }
      } else throw new Error(`found '${lit}', expected: ',', or identifier`);
    }
  }

  private exactValue(): string[] {
    const t = this.look(true).tok;
    if (t === 'eos' || t === ',') return [''];
    const { tok, lit } = this.take(true);
    if (tok === 'id') return [lit];
    throw new Error(`found '${lit}', expected: identifier`);
  }
}

/** Upstream's NewRequirement checks; errors aggregated into one message. */
function newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  const errs: FieldError[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length) errs.push(fieldErr.invalid('key', key, keyErrs.join('; ')));
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(fieldErr.invalid('values', values, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(fieldErr.invalid('values', values, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(fieldErr.invalid('values', values, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(fieldErr.invalid('values', values, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (!goParseInt64(v).ok) errs.push(fieldErr.invalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  values.forEach((v, i) => {
    const m = isValidLabelValue(v);
    if (m.length) errs.push(fieldErr.invalid(`values[${i}][${key}]`, v, m.join('; ')));
  });
  if (errs.length) throw new Error(renderFieldErrorList(errs));
  return { key, operator, values };
}

/** Parses a labelSelector; a malformed one is a 400 with upstream's parser message. */
export function parseLabelSelector(selector: string): LabelSelector {
  try {
    return new LabelSelector(new Parser(lex(selector)).parse());
  } catch (e) {
    if (e instanceof Error) throw errors.badRequest(e.message);
    throw e;
  }
}
