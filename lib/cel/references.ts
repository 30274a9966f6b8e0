// The variable names an expression can read: every identifier in its checked AST. Comprehension
// variables are counted too, so the set may be larger than needed, never smaller — callers use
// it to skip preparing values (an admission request's namespace, its conversion) nobody reads.
import type { ASTNode } from '@marcbachmann/cel-js';

export function referencedNames(root: ASTNode): ReadonlySet<string> {
  const names = new Set<string>();
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) {
      for (const x of n) walk(x);
      return;
    }
    if (n === null || typeof n !== 'object' || !('op' in n) || !('args' in n)) return;
    const node = n as { op: string; args: unknown };
    if (node.op === 'id' && typeof node.args === 'string') names.add(node.args);
    walk(node.args);
  };
  walk(root);
  return names;
}
