// A set of field paths (structured-merge-diff's fieldpath.Set), kept as a tree keyed by the
// elements' FieldsV1 spelling. A path is a member when its node is marked; unmarked nodes exist
// only to reach marked descendants and are pruned when they have none.
import type { Path, PathElement } from './pathElement';
import { sortSmall } from '../sortSmall';
import { comparePathElements, serializePathElement } from './pathElement';

interface Node {
  member: boolean;
  /** Keyed by the element's FieldsV1 spelling, which each child also carries (`key`). */
  children: Map<string, Child>;
}

interface Child {
  key: string;
  pe: PathElement;
  node: Node;
}

/**
 * The children of every node that has none: most nodes are leaves, and a Map each cost about
 * 7 KB per create (allocation profile, docs/perf). Never written: writableChildren swaps in a
 * node's own Map before its first child.
 */
const noChildren: Map<string, Child> = new Map();
const newNode = (): Node => ({ member: false, children: noChildren });

function writableChildren(n: Node): Map<string, Child> {
  if (n.children === noChildren) n.children = new Map();
  return n.children;
}

/** The child of n keyed `key`, made (for element e) when missing: the one way nodes are added. */
export function childOf(n: Node, key: string, e: PathElement): Child {
  let c = n.children.get(key);
  if (!c) writableChildren(n).set(key, (c = { key, pe: e, node: newNode() }));
  return c;
}
const byElement = (a: Child, b: Child): number => comparePathElements(a.pe, b.pe);
const or = (a: boolean, b: boolean): boolean => a || b;
const and = (a: boolean, b: boolean): boolean => a && b;
const andNot = (a: boolean, b: boolean): boolean => a && !b;

export class FieldSet {
  private readonly root: Node;
  /** Set once the tree may be shared with another set (an operand or result of an operation). */
  private sealed = false;

  constructor(paths: Iterable<Path> = []) {
    this.root = newNode();
    for (const p of paths) this.insert(p);
  }

  private static of(root: Node): FieldSet {
    const s = new FieldSet();
    (s as unknown as { root: Node }).root.children = root.children;
    s.sealed = true;
    return s;
  }

  /** Marks the operands of an operation: their trees may now be shared. */
  private static seal(a: FieldSet, b: FieldSet): void {
    a.sealed = true;
    b.sealed = true;
  }

  /** A set built by writing its tree directly (the FieldsV1 reader); `fill` gets the empty root. */
  static build(fill: (root: FieldSetNode) => void): FieldSet {
    const s = new FieldSet();
    fill(s.root);
    return s;
  }

  insert(path: Path): this {
    // Another set may share this tree: changing it would change that one too.
    if (this.sealed) throw new Error('FieldSet.insert on a set that shares its tree; insert into copy() instead');
    if (path.length === 0) return this;
    let n = this.root;
    for (const e of path) n = childOf(n, serializePathElement(e), e).node;
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

  /** A deep copy, the one kind of set that may be inserted into after another was built from it. */
  copy(): FieldSet {
    const s = new FieldSet();
    (s as unknown as { root: Node }).root.children = copyNode(this.root).children;
    return s;
  }

  // Results may share nodes with their operands (and be an operand) — sets are not changed after construction.
  union(other: FieldSet): FieldSet {
    FieldSet.seal(this, other);
    if (other.root.children.size === 0) return this;
    if (this.root.children.size === 0) return other;
    return FieldSet.of(combine(this.root, other.root, or, true));
  }

  intersection(other: FieldSet): FieldSet {
    FieldSet.seal(this, other);
    return FieldSet.of(combine(this.root, other.root, and, false));
  }

  difference(other: FieldSet): FieldSet {
    FieldSet.seal(this, other);
    if (other.root.children.size === 0 || this.root.children.size === 0) return this;
    return FieldSet.of(combine(this.root, other.root, andNot, true));
  }

  /** Members none of whose prefixes (themselves included) is in prefixes (upstream's RecursiveDifference). */
  withoutPrefixes(prefixes: FieldSet): FieldSet {
    FieldSet.seal(this, prefixes);
    if (prefixes.root.children.size === 0) return this;
    return FieldSet.of(pruneBelow(this.root, prefixes.root));
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

  /** A node's children (each with its FieldsV1 key) in upstream's element order, for the FieldsV1 writer and iteration. */
  static sortedChildren(n: Node): Child[] {
    return sortSmall(Array.from(n.children.values()), byElement);
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
 * Combines two trees member-wise; visitA says whether children present only in `a` are kept
 * (union and difference) — children only in `b` matter for union alone. Sets never change once
 * built (every insert goes into a set under construction) and hold no empty nodes, so a subtree
 * only one side has is the result's as it is: shared, not copied.
 */
function combine(a: Node, b: Node, op: (a: boolean, b: boolean) => boolean, visitA: boolean): Node {
  const out = newNode();
  out.member = op(a.member, b.member);
  for (const [k, ca] of a.children) {
    const cb = b.children.get(k);
    if (!cb) {
      if (visitA) writableChildren(out).set(k, ca);
      continue;
    }
    const child = combine(ca.node, cb.node, op, visitA);
    if (child.member || child.children.size) writableChildren(out).set(k, { key: k, pe: ca.pe, node: child });
  }
  if (op(false, true)) for (const [k, cb] of b.children) if (!a.children.has(k)) writableChildren(out).set(k, cb);
  return out;
}

function copyNode(n: Node): Node {
  const out = newNode();
  out.member = n.member;
  for (const [k, c] of n.children) writableChildren(out).set(k, { key: k, pe: c.pe, node: copyNode(c.node) });
  return out;
}

/** `a` without the subtrees whose path is a member of `p` (one walk of both trees; untouched subtrees shared). */
function pruneBelow(a: Node, p: Node): Node {
  const out = newNode();
  out.member = a.member;
  for (const [k, c] of a.children) {
    const pc = p.children.get(k);
    if (!pc) {
      writableChildren(out).set(k, c);
      continue;
    }
    if (pc.node.member) continue;
    const child = pruneBelow(c.node, pc.node);
    if (child.member || child.children.size) writableChildren(out).set(k, { key: k, pe: c.pe, node: child });
  }
  return out;
}

// Upstream's Set.Iterate: a level's members first, then each child's subtree.
function walk(n: Node, prefix: PathElement[], fn: (p: Path) => void): void {
  const sorted = FieldSet.sortedChildren(n);
  for (const c of sorted) if (c.node.member) fn([...prefix, c.pe]);
  for (const c of sorted) if (c.node.children.size) walk(c.node, [...prefix, c.pe], fn);
}
