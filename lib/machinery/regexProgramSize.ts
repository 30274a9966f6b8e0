// The size of the program a Go-syntax pattern compiles to, estimated from its text in one pass
// before compiling (Go's regexp/syntax calcSize rules: a repeat multiplies what it repeats). Compiling
// costs time per instruction — `a{2,999}` is eight characters and two thousand instructions — so
// callers bound a pattern by this figure before they spend that time. Unicode classes weigh more:
// each builds its range table. Malformed text gets some estimate; compiling then refuses it.

/** What one `\p`/`\P` class costs to compile, in instructions' worth (measured with re2js). */
const unicodeClassWeight = 16;

interface Frame {
  /** Sizes of the alternatives already closed by `|`. */
  alternatives: number;
  count: number;
  /** The open alternative's size so far. */
  current: number;
  /** The size of the last atom (what a following repeat operator applies to). */
  last: number;
  capture: boolean;
}

const newFrame = (capture: boolean): Frame => ({ alternatives: 0, count: 0, current: 0, last: 0, capture });

function close(f: Frame): number {
  const size = f.alternatives + f.current + f.count;
  return Math.max(1, size + (f.capture ? 2 : 0));
}

/** `{n}`, `{n,}`, `{n,m}` at i: [min, max (-1 = unbounded), length], or undefined when it is a literal `{`. */
function countedRepeat(p: string, i: number): [number, number, number] | undefined {
  const m = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(p.slice(i, i + 12));
  if (!m) return undefined;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]);
  return [min, max, m[0].length];
}

function repeated(sub: number, min: number, max: number): number {
  if (max === -1) return min === 0 ? 2 + sub : 1 + min * sub;
  return max * sub + (max - min);
}

export function regexProgramSize(pattern: string): number {
  const stack: Frame[] = [newFrame(false)];
  let top = stack[0]!;
  const atom = (size: number): void => {
    top.current += size;
    top.last = size;
  };
  const p = pattern;
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '\\') {
      const e = p[i + 1];
      if (e === 'Q') {
        const end = p.indexOf('\\E', i + 2);
        const stop = end < 0 ? p.length : end;
        for (let k = i + 2; k < stop; k++) atom(1);
        i = end < 0 ? p.length : end + 2;
        continue;
      }
      if (e === 'p' || e === 'P') {
        const brace = p[i + 2] === '{' ? p.indexOf('}', i + 3) : -1;
        atom(unicodeClassWeight);
        i = brace >= 0 ? brace + 1 : i + 3;
        continue;
      }
      atom(1);
      i += 2;
      continue;
    }
    if (c === '[') {
      // A class is one instruction; find its end: `]` right after `[` or `[^` is a member.
      let k = i + 1;
      if (p[k] === '^') k++;
      if (p[k] === ']') k++;
      let weight = 1;
      while (k < p.length && p[k] !== ']') {
        if (p[k] === '\\') {
          if (p[k + 1] === 'p' || p[k + 1] === 'P') weight += unicodeClassWeight;
          k += 2;
        } else if (p[k] === '[' && p[k + 1] === ':') {
          const end = p.indexOf(':]', k + 2);
          k = end < 0 ? k + 1 : end + 2;
        } else k++;
      }
      atom(weight);
      i = k + 1;
      continue;
    }
    if (c === '(') {
      if (p[i + 1] === '?') {
        // (?flags) sets flags and is no atom; (?flags:…), (?P<name>…) and (?<name>…) open groups.
        const m = /^\(\?([a-zA-Z-]*)(\)|:)/.exec(p.slice(i, i + 16));
        if (m && m[2] === ')') {
          i += m[0].length;
          continue;
        }
        const capture = p[i + 2] === 'P' || p[i + 2] === '<';
        top = newFrame(capture);
        stack.push(top);
        if (m) i += m[0].length;
        else {
          const gt = p.indexOf('>', i);
          i = gt < 0 ? p.length : gt + 1;
        }
        continue;
      }
      top = newFrame(true);
      stack.push(top);
      i++;
      continue;
    }
    if (c === ')') {
      if (stack.length > 1) {
        const size = close(stack.pop()!);
        top = stack[stack.length - 1]!;
        atom(size);
      }
      i++;
      continue;
    }
    if (c === '|') {
      top.alternatives += top.current;
      top.count++;
      top.current = 0;
      top.last = 0;
      i++;
      continue;
    }
    let rep: [number, number, number] | undefined;
    if (c === '*' || c === '+' || c === '?') rep = c === '*' ? [0, -1, 1] : c === '+' ? [1, -1, 1] : [0, 1, 1];
    else if (c === '{') rep = countedRepeat(p, i);
    if (rep) {
      const [min, max, len] = rep;
      const size = c === '?' ? 1 + top.last : c === '*' ? 2 + top.last : repeated(top.last, min, max);
      top.current += size - top.last;
      top.last = size;
      i += len;
      if (p[i] === '?') i++;
      continue;
    }
    atom(1);
    i += c.length;
  }
  while (stack.length > 1) {
    const size = close(stack.pop()!);
    stack[stack.length - 1]!.current += size;
  }
  return close(stack[0]!) + 2;
}
