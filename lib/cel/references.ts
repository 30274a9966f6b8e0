// What an expression can read: every identifier in its checked AST, and per identifier the field
// paths it is read through. Comprehension variables are counted too, so the answer may be larger
// than needed, never smaller. Callers use it to skip preparing values nobody reads (an admission
// request's namespace) and to convert only the fields that are read (projectCelValue).
import type { ASTNode } from '@marcbachmann/cel-js';

/** Fields read below a value: `all` when the value itself is used (or anything below it). */
export interface FieldTree {
  readonly all?: true;
  readonly fields?: ReadonlyMap<string, FieldTree>;
}

export const wholeValue: FieldTree = Object.freeze({ all: true });

interface Node {
  op: string;
  args: unknown;
}

const isNode = (n: unknown): n is Node => n !== null && typeof n === 'object' && 'op' in n && 'args' in n;

/** `a.b.c` or `a.?b.c`: the root identifier and the selected field names, else undefined. */
function selectChain(n: Node): { root: string; path: string[] } | undefined {
  if (n.op === 'id') return typeof n.args === 'string' ? { root: n.args, path: [] } : undefined;
  if (n.op !== '.' && n.op !== '.?') return undefined;
  const [target, field] = n.args as [unknown, unknown];
  if (!isNode(target) || typeof field !== 'string') return undefined;
  const inner = selectChain(target);
  if (!inner) return undefined;
  inner.path.push(field);
  return inner;
}

function treeOf(path: readonly string[], from = 0): FieldTree {
  if (from === path.length) return wholeValue;
  return { fields: new Map([[path[from]!, treeOf(path, from + 1)]]) };
}

export function mergeFieldTrees(a: FieldTree, b: FieldTree): FieldTree {
  if (a.all || b.all) return wholeValue;
  const fields = new Map(a.fields);
  for (const [k, t] of b.fields ?? []) {
    const prev = fields.get(k);
    fields.set(k, prev ? mergeFieldTrees(prev, t) : t);
  }
  return { fields };
}

/** Per identifier, the fields the expression selects from it (whole when used otherwise). */
export function referencedPaths(root: ASTNode): ReadonlyMap<string, FieldTree> {
  const paths = new Map<string, FieldTree>();
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) {
      for (const x of n) walk(x);
      return;
    }
    if (!isNode(n)) return;
    // Top-down, so the first chain met is the longest: its inner selects are not walked again.
    const chain = selectChain(n);
    if (chain) {
      const t = treeOf(chain.path);
      const prev = paths.get(chain.root);
      paths.set(chain.root, prev ? mergeFieldTrees(prev, t) : t);
      return;
    }
    walk(n.args);
  };
  walk(root);
  return paths;
}

export function referencedNames(root: ASTNode): ReadonlySet<string> {
  return new Set(referencedPaths(root).keys());
}
