// Measures the two CEL candidates (issue 12) on the admission-policy expressions: compile time,
// evaluate time and a feature probe. Run: node bench/celCandidates.mjs [dir holding @bufbuild/cel]
// (@bufbuild/cel is not a project dependency; install it anywhere and pass its node_modules).
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import * as marc from '@marcbachmann/cel-js';

const bufDir = process.argv[2];
const buf = bufDir ? createRequire(`${bufDir}/`)('@bufbuild/cel') : undefined;
const bufExt = bufDir ? createRequire(`${bufDir}/`)('@bufbuild/cel/ext') : undefined;

const items = Array.from({ length: 100 }, (_, i) => BigInt(i));
const input = {
  object: { metadata: { name: 'team-a-sa', labels: { a: 'b', c: 'd' } }, spec: { usages: ['client auth', 'digital signature'] } },
  params: { data: { prefix: 'team-a' } },
  items,
};
const exprs = {
  startsWith: 'object.metadata.name.startsWith(params.data.prefix)',
  allIn: "object.spec.usages.all(u, u in ['client auth','digital signature'])",
  sizeMap: 'size(object.metadata.labels) < 10',
  matches: "object.metadata.name.matches('^[a-z]+-[a-z]-[a-z]+$')",
  comprehension100: 'items.map(x, x * 2).filter(x, x > 50).size() == 74',
};
const toMap = (v) =>
  Array.isArray(v) ? v.map(toMap) : v && typeof v === 'object' ? new Map(Object.entries(v).map(([k, x]) => [k, toMap(x)])) : v;

function time(fn, n) {
  for (let i = 0; i < Math.min(n, 1000); i++) fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) fn();
  return ((performance.now() - t) * 1000) / n; // µs
}

const rows = [];
for (const [name, src] of Object.entries(exprs)) {
  const env = new marc.Environment({ unlistedVariablesAreDyn: true });
  const m = env.parse(src);
  const row = { expr: name, marcCompileUs: time(() => env.parse(src).check(), 2000), marcEvalUs: time(() => m(input), 20000), marcResult: m(input) };
  if (buf) {
    const benv = buf.celEnv({ funcs: bufExt.strings });
    const p = buf.plan(benv, buf.parse(src));
    const bin = { object: input.object, params: input.params, items };
    row.bufCompileUs = time(() => buf.plan(benv, buf.parse(src)), 2000);
    row.bufEvalUs = time(() => p(bin), 20000);
    row.bufResult = p(bin);
  }
  rows.push(row);
}
for (const r of rows) for (const k of Object.keys(r)) if (typeof r[k] === 'number') r[k] = Number(r[k].toFixed(2));
console.table(rows);

// Feature probe: each returns the value or the error text.
const probe = (f) => { try { const v = f(); return v instanceof Error ? `ERR ${v.message}` : String(v); } catch (e) { return `ERR ${e.message.split('\n')[0]}`; } };
const features = {
  'has() on dyn': 'has(object.metadata.name) && !has(object.metadata.uid)',
  'exists_one': '[1,2,3].exists_one(x, x > 2)',
  'string ext lowerAscii': "'ABC'.lowerAscii() == 'abc'",
  'string ext split/join': "'a,b'.split(',').join('-') == 'a-b'",
  'optional .?': 'object.?metadata.?uid.orValue("none") == "none"',
  'int64 overflow error': '9223372036854775807 + 1',
  'uint literal': '1u + 2u == 3u',
  'timestamp+duration': 'timestamp("2020-01-01T00:00:00Z") + duration("1h") > timestamp("2020-01-01T00:30:00Z")',
  'map literal dyn': "{'a': 1}['a'] == 1",
};
const prow = [];
for (const [name, src] of Object.entries(features)) {
  const env = new marc.Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true });
  const r = { feature: name, marc: probe(() => env.evaluate(src, input)) };
  if (buf) r.buf = probe(() => buf.run(src, { object: input.object }, { funcs: bufExt.strings }));
  prow.push(r);
}
console.table(prow);
