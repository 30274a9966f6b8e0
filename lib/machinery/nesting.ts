// How deep a JSON value this server will process. Go's decoder accepts 10,000 levels, but
// JavaScript recursion, structuredClone (~2,000 levels) and JSON.stringify (~4,500) give out
// first, so free-form values that would be stored and patch documents are held to far less;
// real objects are a few dozen levels deep.
import { errors } from './errors';
import type { GoJsonNode } from './goJson';

export const maxProcessedNesting = 1000;

/** Whether arrays/objects in the tree nest more than max levels (the root container is level 1). Iterative. */
export function nestsDeeperThan(root: GoJsonNode, max: number): boolean {
  const work: [GoJsonNode, number][] = [[root, 0]];
  for (let w = work.pop(); w; w = work.pop()) {
    const [node, above] = w;
    if (node.kind !== 'object' && node.kind !== 'array') continue;
    const level = above + 1;
    if (level > max) return true;
    if (node.kind === 'object') for (const m of node.members) work.push([m.value, level]);
    else for (const item of node.items) work.push([item, level]);
  }
  return false;
}

/** First number literal Go's ParseFloat refuses as out of range (it would be ±Inf), in document order. */
export function firstFloatOverflow(root: GoJsonNode): string | undefined {
  const work: GoJsonNode[] = [root];
  for (let node = work.pop(); node; node = work.pop()) {
    if (node.kind === 'number') {
      if (!Number.isFinite(Number(node.text))) return node.text;
    } else if (node.kind === 'object') {
      for (let i = node.members.length - 1; i >= 0; i--) work.push(node.members[i].value);
    } else if (node.kind === 'array') {
      for (let i = node.items.length - 1; i >= 0; i--) work.push(node.items[i]);
    }
  }
  return undefined;
}

/** Patch documents deeper than this server processes are refused with a 400 before anything else. */
export function refuseDeepPatch(tree: GoJsonNode): void {
  if (nestsDeeperThan(tree, maxProcessedNesting)) throw errors.badRequest(`the patch is nested more than ${maxProcessedNesting} levels deep`);
}
