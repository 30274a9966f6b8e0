// A set of field paths (structured-merge-diff's fieldpath.Set), kept as a tree keyed by the
// elements' FieldsV1 spelling. A path is a member when its node is marked; unmarked nodes exist
// only to reach marked descendants and are pruned when they have none.
import type { Path, PathElement } from './pathElement';
import { comparePathElements, serializePathElement } from './pathElement';

interface Node {
  member: boolean;
  children: Map<string, { pe: PathElement; node: Node }>;
}

const newNode = (): Node => ({ member: false, children: new Map() });

export class FieldSet {
  private readonly root: Node;

  constructor(paths: Iterable<Path> = []) {
    this.root = newNode();
    for (const p of paths) this.insert(p);
  }

  private static of(root: Node): FieldSet {
    const s = new FieldSet();
    (s as unknown as { root: Node }).root.children = root.children;
    return s;
  }

  insert(path: Path): this {
    if (path.length === 0) return this;
    let n = this.root;
    for (const e of path) {
      const k = serializePathElement(e);
      let c = n.children.get(k);
      if (!c) n.children.set(k, (c = { pe: e, node: newNode() }));
      n = c.node;
    }
    n.member = true;
    return this;
  }

  has(path: Path): boolean {
    const n = this.nodeAt(path);
    return !!n && n.member && path.length > 0;
  }

  /** True when some member lies strictly below path. */
  hasDescendants(path: Path): boolean {
    const n = this.nodeAt(path);
    return !!n && hasMember(n, false);
  }

  private nodeAt(path: Path): Node | undefined {
    let n: Node | undefined = this.root;
    for (const e of path) {
      n = n.children.get(serializePathElement(e))?.node;
      if (!n) return undefined;
    }
    return n;
  }

  isEmpty(): boolean {
    return !hasMember(this.root, false);
  }

  size(): number {
    let count = 0;
    this.iterate(() => count++);
    return count;
  }

  union(other: FieldSet): FieldSet {
    return FieldSet.of(combine(this.root, other.root, (a, b) => a || b, true));
  }

  intersection(other: FieldSet): FieldSet {
    return FieldSet.of(combine(this.root, other.root, (a, b) => a && b, false));
  }

  difference(other: FieldSet): FieldSet {
    return FieldSet.of(combine(this.root, other.root, (a, b) => a && !b, true));
  }

  /** Members none of whose prefixes (themselves included) is in prefixes (upstream's RecursiveDifference). */
  withoutPrefixes(prefixes: FieldSet): FieldSet {
    return FieldSet.of(prune(this.root, prefixes.root));
  }

  /** Members with no member below them (upstream's Leaves). */
  leaves(): FieldSet {
    const out = new FieldSet();
    this.iterate((p) => {
      if (!this.hasDescendants(p)) out.insert(p);
    });
    return out;
  }

  /** Members in upstream's order (see walk). */
  iterate(fn: (path: Path) => void): void {
    walk(this.root, [], fn);
  }

  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }

  equals(other: FieldSet): boolean {
    return this.difference(other).isEmpty() && other.difference(this).isEmpty();
  }

  /** Children of the root, sorted, for the FieldsV1 writer. */
  static sortedChildren(n: Node): { pe: PathElement; node: Node }[] {
    return [...n.children.values()].sort((a, b) => comparePathElements(a.pe, b.pe));
  }

  /** The tree (read-only) for the FieldsV1 writer. */
  get tree(): Readonly<Node> {
    return this.root;
  }
}

export type FieldSetNode = Node;

function hasMember(n: Node, self: boolean): boolean {
  if (self && n.member) return true;
  for (const c of n.children.values()) if (hasMember(c.node, true)) return true;
  return false;
}

/**
 * Combines two trees member-wise; keepOnlyA says whether children present only in `a` are
 * visited (union and difference) — children only in `b` matter for union alone.
 */
function combine(a: Node | undefined, b: Node | undefined, op: (a: boolean, b: boolean) => boolean, visitA: boolean): Node {
  const out = newNode();
  out.member = op(!!a?.member, !!b?.member);
  const keys = new Set<string>();
  if (a) for (const k of a.children.keys()) if (visitA || b?.children.has(k)) keys.add(k);
  if (b && op(false, true)) for (const k of b.children.keys()) keys.add(k);
  for (const k of keys) {
    const ca = a?.children.get(k);
    const cb = b?.children.get(k);
    const child = combine(ca?.node, cb?.node, op, visitA);
    if (child.member || child.children.size) out.children.set(k, { pe: (ca ?? cb)!.pe, node: child });
  }
  return out;
}

/** a's tree without the subtrees under p's members (p: the node at the same place in the prefixes' tree). */
function prune(a: Node, p: Node | undefined): Node {
  const out = newNode();
  out.member = a.member;
  for (const [k, c] of a.children) {
    const pc = p?.children.get(k);
    if (pc?.node.member) continue;
    const child = prune(c.node, pc?.node);
    if (child.member || child.children.size) out.children.set(k, { pe: c.pe, node: child });
  }
  return out;
}

// Upstream's Set.Iterate: a level's members first, then each child's subtree.
function walk(n: Node, prefix: PathElement[], fn: (p: Path) => void): void {
  const sorted = FieldSet.sortedChildren(n);
  for (const c of sorted) if (c.node.member) fn([...prefix, c.pe]);
  for (const c of sorted) if (c.node.children.size) walk(c.node, [...prefix, c.pe], fn);
}
