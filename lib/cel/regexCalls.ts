// CEL's regular expressions — `matches` and upstream's `find`/`findAll` — run on the linear-time
// RE2 engine (lib/machinery/linearRegex.ts), never on JavaScript's backtracking RegExp. A checked
// call's node is taken over: a literal pattern is compiled once here, where upstream compiles it
// (`matches` literals are refused by cel-go's ValidateRegexLiterals at check time, `find` literals
// when the program is built); a pattern computed at run time is charged for its compilation and
// compiled (cached) when the call runs. Every call is charged before it matches.
//
// Cost: upstream's strCost × regexCost (the pattern's length over 4, a guess at its instructions),
// or the matcher's real work when that is larger: an RE2 match costs O(input × instructions), and a
// counted repeat makes an eight-character `a{2,999}` two thousand instructions. One unit per 40
// cells equals upstream's figure for a pattern with about as many instructions as characters, so
// ordinary patterns cost what they cost upstream, and a pattern that compiles to far more pays for
// it: the worst matching (re2js's NFA, ~25 ns per cell) stays near 1 µs per unit. Compiling costs time per instruction too: a pattern
// computed at run time pays for it when it is not in the cache, and a literal whose compilation
// alone would exceed an expression's limit is refused as too large.
import { LinearRegex, RegexSyntaxError } from '../machinery/linearRegex';
import { charge } from './activeCost';
import { perCallLimit, unitCost } from './cost';
import type { HandledNode } from './sizedCalls';

/** Match work (input runes × program instructions) per cost unit: upstream's 0.1 per rune × 0.25 per pattern character. */
export const matchCellsPerUnit = 40;
/** Cost of compiling one instruction (re2js takes ~2.5–4 µs each). */
export const compileCostPerInstruction = 40;
/** The largest literal program compiled at all: its compilation alone would cost an expression's limit. */
const maxLiteralProgram = Math.floor(perCallLimit / compileCostPerInstruction);

/** An invalid literal pattern, as upstream reports it: a check issue for `matches`, a program error for find/findAll. */
export class RegexLiteralError extends Error {
  constructor(
    message: string,
    /** Where in the expression the literal starts (for the check issue's caret). */
    readonly offset: number,
    readonly stage: 'check' | 'program',
  ) {
    super(message);
    this.name = 'RegexLiteralError';
  }
}

const regexCalls = new Set(['matches', 'find', 'findAll']);

/** Upstream's runtime cost of a regex call over `input` with `pattern` (cel-go MatchesString, library find/findAll). */
export function upstreamRegexCost(input: string, pattern: string): number {
  const strCost = Math.ceil((1 + input.length) * unitCost.stringTraversalFactor);
  return strCost * Math.ceil(pattern.length * unitCost.regexLengthFactor);
}

/** Every program has a fail and a match instruction; they are not work per rune. */
const programOverhead = 2;

/** What this call charges: upstream's figure, or the matcher's work when that is larger. */
export function regexMatchCost(input: string, pattern: string, programSize: number): number {
  const cells = (1 + input.length) * Math.max(1, programSize - programOverhead);
  return Math.max(upstreamRegexCost(input, pattern), Math.ceil(cells / matchCellsPerUnit));
}

const chargeCompilation = (estimatedSize: number): void => charge(Math.ceil(estimatedSize * compileCostPerInstruction));

interface LiteralNode {
  op: string;
  args: unknown;
  start?: number;
  pos?: number;
}

/** Takes over a checked regex call node; throws RegexLiteralError for a literal RE2 refuses. */
export function useLinearRegex(n: HandledNode): void {
  if (n.op !== 'rcall' || typeof n.handle !== 'function') return;
  const [name, , argNodes] = n.args as [string, unknown, LiteralNode[]];
  if (!regexCalls.has(name)) return;
  const patternNode = argNodes[0];
  let literal: LinearRegex | undefined;
  if (patternNode?.op === 'value' && typeof patternNode.args === 'string') {
    try {
      literal = LinearRegex.compile(patternNode.args, { maxSize: maxLiteralProgram });
    } catch (e) {
      if (!(e instanceof RegexSyntaxError)) throw e;
      const offset = patternNode.start ?? patternNode.pos ?? 0;
      throw name === 'matches'
        ? new RegexLiteralError('invalid matches argument', offset, 'check')
        : new RegexLiteralError(e.message, offset, 'program');
    }
  }
  const base = n.handle as (...a: unknown[]) => unknown;
  n.celCost = 0;
  n.handle = function (this: unknown, operands: unknown[], ...rest: unknown[]): unknown {
    const [s, pattern, limit] = operands;
    // Anything else (a dyn value of another type) gets cel-js's own overload error.
    if (typeof s !== 'string' || typeof pattern !== 'string') return base.call(this, operands, ...rest);
    let re = literal;
    if (!re) {
      try {
        re = LinearRegex.compile(pattern, { beforeCompiling: chargeCompilation });
      } catch (e) {
        // Go's message, as cel-go's matches returns it for a pattern built at run time.
        if (e instanceof RegexSyntaxError) throw new Error(e.message);
        throw e;
      }
    }
    charge(regexMatchCost(s, pattern, re.size));
    if (name === 'matches') return re.test(s);
    if (name === 'find') return re.find(s);
    return re.findAll(s, limit === undefined ? -1 : Number(limit));
  };
}
