// A V8 heap snapshot (.heapsnapshot JSON) summarised by node type and constructor: count and
// summed self size. Read as a stream of chunks (a 100k-object heap's snapshot is larger than a
// string may be): the nodes array is kept as three numbers per node, edges are skipped, and of
// the strings only those naming a non-string node (constructors, closures) are kept.

export interface HeapGroup {
  count: number;
  bytes: number;
}

export interface HeapSummary {
  nodes: number;
  bytes: number;
  /** `type name` for objects, closures, natives and the like; the type alone for strings, numbers, code. */
  groups: Map<string, HeapGroup>;
}

/** Node types whose name is their content (or says nothing): grouped by type only. */
const anonymousTypes = new Set(['string', 'concatenated string', 'sliced string', 'number', 'heap number', 'bigint', 'symbol', 'code']);

const enum Phase {
  Head,
  Nodes,
  SeekStrings,
  Strings,
  Done,
}

/** Fed the snapshot's text chunk by chunk, in order; summary() once the last one is in. */
export class HeapSnapshotReader {
  private phase = Phase.Head;
  private head = '';
  private fieldCount = 0;
  private typeField = 0;
  private nameField = 0;
  private sizeField = 0;
  private typeNames: string[] = [];
  private types = new Uint8Array(0);
  private names = new Uint32Array(0);
  private sizes = new Float64Array(0);
  private nodeCount = 0;
  /** Position in the nodes array: field index and node index of the number being read. */
  private field = 0;
  private node = 0;
  private num = 0;
  private inNum = false;
  private seekTail = '';
  private needed = new Set<number>();
  private strings = new Map<number, string>();
  private stringIndex = 0;
  private inString = false;
  private escaped = false;
  private current: string[] = [];
  private keep = false;

  feed(chunk: string): void {
    let i = 0;
    while (i < chunk.length && this.phase !== Phase.Done) {
      switch (this.phase) {
        case Phase.Head:
          i = this.readHead(chunk, i);
          break;
        case Phase.Nodes:
          i = this.readNodes(chunk, i);
          break;
        case Phase.SeekStrings:
          i = this.seekStrings(chunk, i);
          break;
        case Phase.Strings:
          i = this.readStrings(chunk, i);
          break;
      }
    }
  }

  private readHead(chunk: string, from: number): number {
    const marker = '"nodes":[';
    const start = Math.max(0, this.head.length - marker.length);
    this.head += chunk.slice(from);
    const at = this.head.indexOf(marker, start);
    if (at < 0) return chunk.length;
    const meta = JSON.parse(`${this.head.slice(0, at).replace(/,\s*$/, '')}}`) as {
      snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] }; node_count: number };
    };
    const fields = meta.snapshot.meta.node_fields;
    this.fieldCount = fields.length;
    this.typeField = fields.indexOf('type');
    this.nameField = fields.indexOf('name');
    this.sizeField = fields.indexOf('self_size');
    this.typeNames = meta.snapshot.meta.node_types[0];
    this.nodeCount = meta.snapshot.node_count;
    this.types = new Uint8Array(this.nodeCount);
    this.names = new Uint32Array(this.nodeCount);
    this.sizes = new Float64Array(this.nodeCount);
    this.phase = Phase.Nodes;
    // Continue right after the marker, in this chunk.
    const consumedBefore = this.head.length - (chunk.length - from);
    this.head = '';
    return from + (at + marker.length - consumedBefore);
  }

  private readNodes(chunk: string, from: number): number {
    for (let i = from; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        this.num = this.num * 10 + (c - 48);
        this.inNum = true;
        continue;
      }
      if (this.inNum) this.store();
      if (c === 93 /* ] */) {
        this.phase = Phase.SeekStrings;
        return i + 1;
      }
    }
    return chunk.length;
  }

  private store(): void {
    const f = this.field;
    const n = this.node;
    if (f === this.typeField) this.types[n] = this.num;
    else if (f === this.nameField) this.names[n] = this.num;
    else if (f === this.sizeField) this.sizes[n] = this.num;
    this.num = 0;
    this.inNum = false;
    if (++this.field === this.fieldCount) {
      this.field = 0;
      this.node++;
    }
  }

  private seekStrings(chunk: string, from: number): number {
    const marker = '"strings":[';
    const text = this.seekTail + chunk.slice(from);
    const at = text.indexOf(marker);
    if (at < 0) {
      this.seekTail = text.slice(-marker.length);
      return chunk.length;
    }
    for (let n = 0; n < this.nodeCount; n++) if (!anonymousTypes.has(this.typeNames[this.types[n]] ?? '')) this.needed.add(this.names[n]);
    this.phase = Phase.Strings;
    return from + (at + marker.length - this.seekTail.length);
  }

  private readStrings(chunk: string, from: number): number {
    let i = from;
    while (i < chunk.length) {
      if (!this.inString) {
        const c = chunk.charCodeAt(i);
        if (c === 34 /* " */) {
          this.inString = true;
          this.keep = this.needed.has(this.stringIndex);
          this.current = [];
        } else if (c === 93 /* ] */) {
          this.phase = Phase.Done;
          return chunk.length;
        }
        i++;
        continue;
      }
      // Inside a string: find its closing quote (not escaped) in this chunk.
      let j = i;
      for (; j < chunk.length; j++) {
        const c = chunk.charCodeAt(j);
        if (this.escaped) this.escaped = false;
        else if (c === 92 /* \ */) this.escaped = true;
        else if (c === 34) break;
      }
      if (this.keep) this.current.push(chunk.slice(i, j));
      if (j === chunk.length) return j;
      if (this.keep) this.strings.set(this.stringIndex, JSON.parse(`"${this.current.join('')}"`) as string);
      this.inString = false;
      this.stringIndex++;
      i = j + 1;
    }
    return i;
  }

  summary(): HeapSummary {
    if (this.phase !== Phase.Done) throw new Error('heap snapshot ended early');
    const groups = new Map<string, HeapGroup>();
    let bytes = 0;
    for (let n = 0; n < this.nodeCount; n++) {
      const type = this.typeNames[this.types[n]] ?? 'unknown';
      const key = anonymousTypes.has(type) ? type : `${type} ${this.strings.get(this.names[n]) ?? '?'}`;
      const g = groups.get(key) ?? { count: 0, bytes: 0 };
      g.count++;
      g.bytes += this.sizes[n];
      bytes += this.sizes[n];
      groups.set(key, g);
    }
    return { nodes: this.nodeCount, bytes, groups };
  }
}

export function summarizeHeapSnapshot(chunks: Iterable<string>): HeapSummary {
  const r = new HeapSnapshotReader();
  for (const c of chunks) r.feed(c);
  return r.summary();
}

/** after − before per group, largest growth first, divided by `per` (e.g. objects added). */
export function diffHeapSummaries(before: HeapSummary, after: HeapSummary, per = 1): { key: string; count: number; bytes: number }[] {
  const keys = new Set([...before.groups.keys(), ...after.groups.keys()]);
  const rows = [...keys].map((key) => {
    const a = before.groups.get(key) ?? { count: 0, bytes: 0 };
    const b = after.groups.get(key) ?? { count: 0, bytes: 0 };
    return { key, count: (b.count - a.count) / per, bytes: (b.bytes - a.bytes) / per };
  });
  return rows.sort((x, y) => Math.abs(y.bytes) - Math.abs(x.bytes));
}
