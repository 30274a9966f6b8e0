// The metric names a PromQL expression reads, so a test can check the shipped rules and dashboard
// against the names the servers export. A small lexer, not a parser: it drops string literals,
// label matchers, range and subquery brackets and grouping label lists, then keeps identifiers
// that are neither functions/aggregations (followed by "(") nor keywords.
const keywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan', 'atan2']);

export function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/#[^\n]*/g, ' ');
  const out = new Set<string>();
  // Not part of a number (1e3, 5m) or of a longer name.
  const re = /(?<![\w.:])([a-zA-Z_:][a-zA-Z0-9_:]*)/g;
  for (let m = re.exec(stripped); m; m = re.exec(stripped)) {
    const name = m[1];
    const after = stripped.slice(m.index + name.length);
    if (/^\s*\(/.test(after) || keywords.has(name.toLowerCase())) continue;
    out.add(name);
  }
  return [...out];
}

/** Metric names in a Prometheus text exposition: sample names, and every series a declared histogram or summary has. */
export function exportedNames(exposition: string): Set<string> {
  const out = new Set<string>();
  for (const line of exposition.split('\n')) {
    const type = /^# TYPE (\S+) (\w+)/.exec(line);
    if (type) {
      const [, name, kind] = type;
      out.add(name);
      if (kind === 'histogram') for (const s of ['_bucket', '_sum', '_count']) out.add(name + s);
      if (kind === 'summary') for (const s of ['_sum', '_count']) out.add(name + s);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line);
    if (sample) out.add(sample[1]);
  }
  return out;
}
