// Reads a V8 .cpuprofile (node --cpu-prof; `make bench BENCH_FLAGS=--profile` writes the
// apiserver's) and prints where the CPU went — top functions by self time, by area (our folders,
// npm packages, Node internals, GC) — and writes a flame graph as SVG, without any dependency.
// Given the bench's results JSON and a phase, only samples taken while that phase's server
// rounds ran count (runLoad records them on CLOCK_MONOTONIC, the clock of the profile's
// timestamps), so one run yields a profile per operation.
//
//   node dist/bench/bench/profile.js <file.cpuprofile> [--results=<bench json>] [--phase=creates|gets|updates|formats.CBOR.list]
//        [--top=25] [--svg=<out.svg>] [--title=<text>]
import { readFileSync, writeFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A frame of the merged tree (same function at the same place under the same parent). */
interface Frame {
  name: string;
  area: string;
  self: number;
  total: number;
  children: Map<string, Frame>;
}

const idleNames = new Set(['(idle)']);

/** Our folder (lib/apiserver), an npm package, a Node module, or a VM bucket. */
export function areaOf(cf: CallFrame): string {
  const url = cf.url;
  if (!url) return cf.functionName.startsWith('(') ? cf.functionName : '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) {
    const parts = url.slice(5).split('/');
    return `node:${parts[0] === 'internal' ? (parts[1] ?? 'internal').replace(/\.js$/, '') : parts[0]}`;
  }
  const dist = url.lastIndexOf('/dist/');
  const path = dist >= 0 ? url.slice(dist + 6) : url.replace(/^file:\/\//, '');
  const parts = path.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
}

function label(cf: CallFrame): string {
  const file = cf.url.slice(cf.url.lastIndexOf('/') + 1);
  const fn = cf.functionName || '(anonymous)';
  return file ? `${fn} ${file}:${cf.lineNumber + 1}` : fn;
}

/** Milliseconds of samples per profile node, counting only samples inside the windows (µs). */
function sampleTimes(p: CpuProfile, windows: [number, number][] | undefined): Map<number, number> {
  const self = new Map<number, number>();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i];
    // A sample stands for the time until the next one.
    const next = i + 1 < p.timeDeltas.length ? p.timeDeltas[i + 1] : 0;
    if (windows && !windows.some(([a, b]) => t >= a && t <= b)) continue;
    self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + Math.max(0, next) / 1000);
  }
  return self;
}

export function buildTree(p: CpuProfile, windows?: [number, number][]): { root: Frame; idleMs: number } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const selfMs = sampleTimes(p, windows);
  const root: Frame = { name: 'all', area: '', self: 0, total: 0, children: new Map() };
  let idleMs = 0;
  const walk = (node: ProfileNode, parent: Frame): number => {
    const cf = node.callFrame;
    const own = selfMs.get(node.id) ?? 0;
    if (idleNames.has(cf.functionName)) {
      idleMs += own;
      return 0;
    }
    const isRoot = cf.functionName === '(root)';
    let f = parent;
    if (!isRoot) {
      const key = `${cf.functionName}\u0000${cf.url}\u0000${cf.lineNumber}`;
      f = parent.children.get(key) ?? { name: label(cf), area: areaOf(cf), self: 0, total: 0, children: new Map() };
      parent.children.set(key, f);
      f.self += own;
    }
    let total = isRoot ? 0 : own;
    for (const c of node.children ?? []) total += walk(byId.get(c)!, f);
    if (!isRoot) f.total += total;
    return total;
  };
  root.total = walk(p.nodes[0], root);
  return { root, idleMs };
}

interface FunctionTime {
  area: string;
  self: number;
  /** Including callees, counted once per stack (recursion does not double it). */
  total: number;
}

function collect(root: Frame): { byFunction: Map<string, FunctionTime>; byArea: Map<string, number> } {
  const byFunction = new Map<string, FunctionTime>();
  const byArea = new Map<string, number>();
  const onStack = new Set<string>();
  const visit = (f: Frame): void => {
    for (const c of f.children.values()) {
      const e = byFunction.get(c.name) ?? { area: c.area, self: 0, total: 0 };
      e.self += c.self;
      const outermost = !onStack.has(c.name);
      if (outermost) e.total += c.total;
      byFunction.set(c.name, e);
      byArea.set(c.area, (byArea.get(c.area) ?? 0) + c.self);
      onStack.add(c.name);
      visit(c);
      if (outermost) onStack.delete(c.name);
    }
  };
  visit(root);
  return { byFunction, byArea };
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function colour(area: string): string {
  let h = 0;
  for (let i = 0; i < area.length; i++) h = (h * 31 + area.charCodeAt(i)) >>> 0;
  if (area.startsWith('lib/') || area.startsWith('cmd/')) return `hsl(${20 + (h % 30)}, 85%, ${55 + (h % 15)}%)`;
  if (area.startsWith('node:')) return `hsl(${200 + (h % 30)}, 60%, ${62 + (h % 12)}%)`;
  if (area.startsWith('(')) return `hsl(0, 0%, ${70 + (h % 15)}%)`;
  return `hsl(${90 + (h % 50)}, 50%, ${55 + (h % 15)}%)`;
}

/** A flame graph (root at the bottom), one rectangle per merged frame, widths by total time. */
export function flameSvg(root: Frame, title: string, width = 1600): string {
  const rowH = 17;
  const scale = root.total > 0 ? width / root.total : 0;
  // Only as deep as frames wide enough to draw.
  let depth = 0;
  const measure = (f: Frame, d: number): void => {
    if (f.total * scale < 0.4) return;
    depth = Math.max(depth, d);
    for (const c of f.children.values()) measure(c, d + 1);
  };
  measure(root, 0);
  const top = 40;
  const height = top + (depth + 1) * rowH + 10;
  const rects: string[] = [];
  const draw = (f: Frame, x: number, d: number): void => {
    const w = f.total * scale;
    if (w < 0.4) return;
    const y = height - 10 - (d + 1) * rowH;
    const pct = ((100 * f.total) / root.total).toFixed(2);
    const text = w > 40 ? `<text x="${(x + 3).toFixed(1)}" y="${y + 12}">${esc(f.name.slice(0, Math.floor(w / 6.5)))}</text>` : '';
    rects.push(
      `<g><title>${esc(f.name)} [${esc(f.area)}] ${f.total.toFixed(1)} ms (${pct}%), self ${f.self.toFixed(1)} ms</title>` +
        `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${rowH - 1}" fill="${d === 0 ? '#ccc' : colour(f.area)}" rx="2"/>${text}</g>`,
    );
    let cx = x;
    for (const c of [...f.children.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      draw(c, cx, d + 1);
      cx += c.total * scale;
    }
  };
  draw(root, 0, 0);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="monospace" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="4" y="18" font-size="14">${esc(title)}</text>`,
    `<text x="4" y="34" fill="#555">${root.total.toFixed(0)} ms sampled; width = time including callees; hover for names. Orange: ours, blue: Node, green: npm, grey: VM/GC.</text>`,
    ...rects,
    '</svg>',
  ].join('\n');
}

interface BenchResults {
  [phase: string]: unknown;
}

interface PhaseRounds {
  server?: { rounds?: { ops: number; monotonicUs?: [number, number] }[]; monotonicUs?: [number, number]; ops?: number };
  rounds?: { ops: number; monotonicUs?: [number, number] }[];
}

/**
 * A phase's rounds: `creates` (its server rounds), or a dotted path to a pass with its own
 * rounds, `formats.CBOR.list` (the formats phase's results by format, get or list).
 */
function phaseRounds(results: BenchResults, phase: string): PhaseRounds | undefined {
  const [head, ...rest] = phase.split('.');
  if (rest.length === 0) return results[head] as PhaseRounds | undefined;
  let v: unknown = results[head];
  if (head === 'formats') v = (v as { results?: unknown } | undefined)?.results;
  for (const k of rest) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined;
  return v as PhaseRounds | undefined;
}

/** The monotonic windows of a phase's server rounds in a bench results document. */
export function phaseWindows(results: BenchResults, phase: string): [number, number][] {
  const p = phaseRounds(results, phase);
  const rounds = p?.server?.rounds ?? (p?.server ? [p.server] : (p?.rounds ?? []));
  const w = rounds.map((r) => r.monotonicUs).filter((x): x is [number, number] => Array.isArray(x));
  if (w.length === 0) throw new Error(`no server rounds with monotonicUs for phase ${phase}`);
  return w;
}

function main(argv: string[]): void {
  const file = argv.find((a) => !a.startsWith('--'));
  const flag = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  if (!file) throw new Error('usage: profile.js <file.cpuprofile> [--results=<bench json> --phase=<creates|gets|updates|formats.CBOR.list>] [--top=25] [--svg=out.svg] [--title=…]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const phase = flag('phase');
  const resultsFile = flag('results');
  const windows = phase && resultsFile ? phaseWindows(JSON.parse(readFileSync(resultsFile, 'utf8')) as BenchResults, phase) : undefined;
  const opsInPhase = phase && resultsFile ? countOps(JSON.parse(readFileSync(resultsFile, 'utf8')) as BenchResults, phase) : 0;
  const { root, idleMs } = buildTree(profile, windows);
  const { byFunction, byArea } = collect(root);
  const top = Number(flag('top') ?? 25);
  const total = root.total;
  const pct = (ms: number): string => `${((100 * ms) / total).toFixed(1)}%`;
  const perOp = (ms: number): string => (opsInPhase ? `${((1000 * ms) / opsInPhase).toFixed(1)} µs/op` : '');
  const out: string[] = [];
  out.push(`${file}${phase ? ` — ${phase} (${windows!.length} rounds, ${opsInPhase} ops)` : ''}: ${total.toFixed(0)} ms CPU sampled (${perOp(total)}), ${idleMs.toFixed(0)} ms idle`);
  out.push('', '| area | self ms | share | per op |', '|---|---|---|---|');
  for (const [a, ms] of [...byArea].sort((x, y) => y[1] - x[1]).slice(0, top)) out.push(`| ${a} | ${ms.toFixed(1)} | ${pct(ms)} | ${perOp(ms)} |`);
  out.push('', '| function (self time) | area | self ms | share |', '|---|---|---|---|');
  for (const [name, e] of [...byFunction].sort((x, y) => y[1].self - x[1].self).slice(0, top)) out.push(`| \`${name}\` | ${e.area} | ${e.self.toFixed(1)} | ${pct(e.self)} |`);
  out.push('', '| our function (including callees) | area | total ms | share | per op |', '|---|---|---|---|---|');
  const ours = [...byFunction].filter(([, e]) => /^(lib|cmd)\//.test(e.area));
  for (const [name, e] of ours.sort((x, y) => y[1].total - x[1].total).slice(0, top)) out.push(`| \`${name}\` | ${e.area} | ${e.total.toFixed(1)} | ${pct(e.total)} | ${perOp(e.total)} |`);
  const focus = flag('focus');
  if (focus) out.push('', `callees of ${focus} (merged over its stacks, ms):`, ...calleesOf(root, focus, Number(flag('depth') ?? 3)));
  process.stdout.write(`${out.join('\n')}\n`);
  const svg = flag('svg');
  if (svg) writeFileSync(svg, flameSvg(root, flag('title') ?? `${file}${phase ? ` — ${phase}` : ''}`));
}

/** The frames called under every frame whose name starts with `name`, merged, as an indented tree. */
function calleesOf(root: Frame, name: string, depth: number): string[] {
  const merged: Frame = { name, area: '', self: 0, total: 0, children: new Map() };
  const mergeInto = (dst: Frame, src: Frame): void => {
    dst.self += src.self;
    dst.total += src.total;
    for (const [k, c] of src.children) {
      let d = dst.children.get(k);
      if (!d) dst.children.set(k, (d = { name: c.name, area: c.area, self: 0, total: 0, children: new Map() }));
      mergeInto(d, c);
    }
  };
  const find = (f: Frame): void => {
    for (const c of f.children.values()) {
      if (c.name.startsWith(name)) mergeInto(merged, c);
      else find(c);
    }
  };
  find(root);
  const lines: string[] = [`${merged.total.toFixed(1)} total, ${merged.self.toFixed(1)} self`];
  const show = (f: Frame, d: number): void => {
    if (d > depth) return;
    for (const c of [...f.children.values()].sort((a, b) => b.total - a.total)) {
      if (c.total < merged.total * 0.01) continue;
      lines.push(`${'  '.repeat(d)}${c.total.toFixed(1)}  ${c.name} [${c.area}]`);
      show(c, d + 1);
    }
  };
  show(merged, 1);
  return lines;
}

function countOps(results: BenchResults, phase: string): number {
  const p = phaseRounds(results, phase);
  return (p?.server?.rounds ?? p?.rounds ?? []).reduce((n, r) => n + r.ops, 0) || (p?.server?.ops ?? 0);
}

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`profile: ${(e as Error).message}\n`);
    process.exit(1);
  }
}
