// client-go's JSONPath parser (util/jsonpath/parser.go): the same grammar, node tree and error
// texts. Upstream recurses once per token; this is the same state machine as a loop, so a long
// template costs no stack. Only the nested parses upstream makes (union members, quoted keys,
// filter operands) recurse, each on a strictly shorter text.
import { goAtoi, goFormatRune } from '../goStrconv';
import { JsonPathError, JsonPathLimitError } from './errors';
import { newList, type JsonPathNode, type ListNode, type SliceParam } from './nodes';
import { errSyntax, unquoteExtend } from './unquote';

/** Longest template accepted (upstream has no bound; printer columns and selectors are short). */
export const maxTemplateLength = 4096;

const eof = -1;
const letter = /^\p{L}$/u;
const digit = /^\p{Nd}$/u;

function isDigit(r: number): boolean {
  return r >= 0 && (r >= 0x30 && r <= 0x39 ? true : r > 0x7f && digit.test(String.fromCodePoint(r)));
}
function isAlphaNumeric(r: number): boolean {
  if (r < 0) return false;
  if (r === 0x5f || (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a)) return true;
  return isDigit(r) || (r > 0x7f && letter.test(String.fromCodePoint(r)));
}
function isSpace(r: number): boolean {
  return r === 0x20 || r === 0x09;
}
function isEndOfLine(r: number): boolean {
  return r === 0x0d || r === 0x0a;
}
function isTerminator(r: number): boolean {
  if (isSpace(r) || isEndOfLine(r)) return true;
  switch (r) {
    case eof:
    case 0x2e: // .
    case 0x2c: // ,
    case 0x5b: // [
    case 0x5d: // ]
    case 0x24: // $
    case 0x40: // @
    case 0x7b: // {
    case 0x7d: // }
      return true;
  }
  return false;
}

/** Go's strconv.Atoi on ASCII digits with an optional sign. */
function atoi(s: string): number | undefined {
  return goAtoi(s);
}

/** strconv.ParseFloat over what parseNumber can have read (a sign, digits, dots): one dot at most and a digit. */
function parseFloatText(s: string): number | undefined {
  const body = s[0] === '+' || s[0] === '-' ? s.slice(1) : s;
  let dots = 0;
  let digits = 0;
  for (const c of body) {
    if (c === '.') dots++;
    else if (c >= '0' && c <= '9') digits++;
    else return undefined;
  }
  return dots <= 1 && digits > 0 ? Number(s) : undefined;
}

/** strings.Trim(s, " "). */
function trimSpaces(s: string): string {
  let i = 0;
  let j = s.length;
  while (i < j && s[i] === ' ') i++;
  while (j > i && s[j - 1] === ' ') j--;
  return s.slice(i, j);
}

/** The three parts of a slice `a:b:c` (sliceOperatorRex), or undefined when it does not match. */
function sliceParts(text: string): [string, string, string] | undefined {
  const parts = text.split(':');
  if (parts.length > 3) return undefined;
  for (const p of parts) if (!/^-?[0-9]*$/.test(p)) return undefined;
  return [parts[0], parts.length > 1 ? `:${parts[1]}` : '', parts.length > 2 ? `:${parts[2]}` : ''];
}

/** `^([^!<>=]+)([!<>=]+)(.+?)$` of parseFilter, matched by hand. */
function splitComparison(text: string): [string, string, string] | undefined {
  const isOp = (c: string): boolean => c === '!' || c === '<' || c === '>' || c === '=';
  let i = 0;
  while (i < text.length && !isOp(text[i])) i++;
  if (i === 0 || i === text.length) return undefined;
  let j = i;
  while (j < text.length && isOp(text[j])) j++;
  // `.` does not match a newline; the filter scan has already refused those.
  if (j < text.length) return [text.slice(0, i), text.slice(i, j), text.slice(j)];
  if (j - i >= 2) return [text.slice(0, i), text.slice(i, j - 1), text.slice(j - 1)];
  return undefined;
}

class Parser {
  private pos = 0;
  private start = 0;
  private width = 0;
  readonly root: ListNode = newList();

  constructor(private readonly input: string) {}

  private consumeText(): string {
    const v = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return v;
  }

  private next(): number {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return eof;
    }
    let r = this.input.codePointAt(this.pos) as number;
    this.width = r > 0xffff ? 2 : 1;
    // A lone surrogate is what Go's decoder sees as invalid UTF-8: U+FFFD, one unit wide.
    if (r >= 0xd800 && r <= 0xdfff) r = 0xfffd;
    this.pos += this.width;
    return r;
  }

  private peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private has(prefix: string): boolean {
    return this.input.startsWith(prefix, this.pos);
  }

  parse(): ListNode {
    let cur: ListNode | undefined; // the action being read, undefined while reading text
    for (;;) {
      if (!cur) {
        // parseText
        for (;;) {
          if (this.has('{')) {
            if (this.pos > this.start) this.root.nodes.push({ type: 'text', text: this.consumeText() });
            this.pos += 1;
            this.consumeText();
            cur = newList();
            this.root.nodes.push(cur);
            break;
          }
          if (this.next() === eof) {
            if (this.pos > this.start) this.root.nodes.push({ type: 'text', text: this.consumeText() });
            return this.root;
          }
        }
        continue;
      }
      // parseInsideAction
      if (this.has('}')) {
        this.pos += 1;
        this.consumeText();
        cur = undefined;
        continue;
      }
      if (this.has('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (this.has('..')) {
        this.parseRecursive(cur);
        continue;
      }
      const r = this.next();
      if (r === eof || isEndOfLine(r)) throw new JsonPathError('unclosed action');
      if (r === 0x20 || r === 0x40 || r === 0x24) {
        // a space; @ or $, the current object
        this.consumeText();
      } else if (r === 0x5b) {
        this.parseArray(cur);
      } else if (r === 0x22 || r === 0x27) {
        this.parseQuote(cur, r);
      } else if (r === 0x2e) {
        this.parseField(cur);
      } else if (r === 0x2b || r === 0x2d || isDigit(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else {
        throw new JsonPathError(`unrecognized character in action: ${goFormatRune(r)}`);
      }
    }
  }

  private parseIdentifier(cur: ListNode): void {
    for (;;) {
      if (isTerminator(this.next())) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    const last = cur.nodes[cur.nodes.length - 1];
    if (last && last.type === 'recursive') throw new JsonPathError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ type: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    const r = this.peek();
    if (r === 0x2b || r === 0x2d) this.next();
    for (;;) {
      const c = this.next();
      if (c !== 0x2e && !isDigit(c)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    const i = atoi(value);
    if (i !== undefined) {
      cur.nodes.push({ type: 'int', value: i });
      return;
    }
    const d = parseFloatText(value);
    if (d !== undefined) {
      cur.nodes.push({ type: 'float', value: d });
      return;
    }
    throw new JsonPathError(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === eof || r === 0x0a) throw new JsonPathError('unterminated array');
      if (r === 0x5d) break;
    }
    let text = this.consumeText().slice(1, -1);
    if (text === '*') text = ':';

    const members = text.split(',');
    if (members.length > 1) {
      const union = members.map((m) => parseAction(`[${trimSpaces(m)}]`));
      cur.nodes.push({ type: 'union', nodes: union });
      return;
    }

    if (text.length >= 2 && text[0] === "'" && text[text.length - 1] === "'" && !text.slice(1, -1).includes("'")) {
      for (const n of parseAction(`.${text.slice(1, -1)}`).nodes) cur.nodes.push(n);
      return;
    }

    const parts = sliceParts(text);
    if (!parts) throw new JsonPathError(`invalid array index ${text}`);
    const params: SliceParam[] = [];
    for (let i = 0; i < 3; i++) {
      let v = parts[i];
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') {
          params.push({ value: 0, known: false, derived: false });
        } else {
          const n = atoi(v);
          if (n === undefined) throw new JsonPathError(`array index ${v} is not a number`);
          params.push({ value: n, known: true, derived: false });
        }
      } else if (i === 1) {
        params.push({ value: params[0].value + 1, known: true, derived: true });
      } else {
        params.push({ value: 0, known: false, derived: false });
      }
    }
    cur.nodes.push({ type: 'array', params: [params[0], params[1], params[2]] });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = 0;
    for (;;) {
      const r = this.next();
      if (r === eof || r === 0x0a) throw new JsonPathError('unterminated filter');
      if (r === 0x22 || r === 0x27) {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === 0x29 && begin === end) {
        break;
      }
    }
    if (this.next() !== 0x5d) throw new JsonPathError('unclosed array expect ]');
    const text = this.consumeText().slice(0, -2);
    const cmp = splitComparison(text);
    if (!cmp) {
      cur.nodes.push({ type: 'filter', left: parseAction(text), right: newList(), operator: 'exists' });
    } else {
      const left = parseAction(cmp[0]);
      const right = parseAction(cmp[2]);
      cur.nodes.push({ type: 'filter', left, right, operator: cmp[1] });
    }
  }

  private parseQuote(cur: ListNode, end: number): void {
    for (;;) {
      const r = this.next();
      if (r === eof || r === 0x0a) throw new JsonPathError('unterminated quoted string');
      if (r === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    const s = unquoteExtend(value);
    if (s === undefined) throw new JsonPathError(`unquote string ${value} error ${errSyntax}`);
    cur.nodes.push({ type: 'text', text: s });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    while (this.advance());
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ type: 'wildcard' });
    else cur.nodes.push({ type: 'field', name: value.replaceAll('\\', '') });
  }

  /** Scans to the next terminator that is not escaped. */
  private advance(): boolean {
    const r = this.next();
    if (r === 0x5c) this.next();
    else if (isTerminator(r)) {
      this.backup();
      return false;
    }
    return true;
  }
}

/** parseAction: the list inside `{text}`. */
function parseAction(text: string): ListNode {
  return parseTemplateTree(`{${text}}`).nodes[0] as ListNode;
}

function parseTemplateTree(text: string): ListNode {
  return new Parser(text).parse();
}

/**
 * Parses a template (`{.spec.replicas}`, `name: {.metadata.name}`) into its node tree; throws
 * JsonPathError with client-go's message.
 */
export function parseJsonPath(template: string): ListNode {
  if (template.length > maxTemplateLength) throw new JsonPathLimitError(`jsonpath template is longer than ${maxTemplateLength} characters`);
  return parseTemplateTree(template);
}

/** The node types' names and String() texts of upstream's node.go, for tests and messages. */
export function describeNode(n: JsonPathNode): string {
  const p = (x: SliceParam): string => `{${x.value} ${x.known} ${x.derived}}`;
  switch (n.type) {
    case 'list':
      return 'NodeList';
    case 'text':
      return `NodeText: ${n.text}`;
    case 'field':
      return `NodeField: ${n.name}`;
    case 'identifier':
      return `NodeIdentifier: ${n.name}`;
    case 'array':
      return `NodeArray: [${n.params.map(p).join(' ')}]`;
    case 'filter':
      return `NodeFilter: NodeList ${n.operator} NodeList`;
    case 'int':
      return `NodeInt: ${n.value}`;
    case 'float':
      return `NodeFloat: ${n.value.toFixed(6)}`;
    case 'bool':
      return `NodeBool: ${n.value}`;
    case 'wildcard':
      return 'NodeWildcard';
    case 'recursive':
      return 'NodeRecursive';
    case 'union':
      return 'NodeUnion';
  }
}
