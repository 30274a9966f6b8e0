// Prometheus's HTTP API as the cluster test reads it, and the metric names the shipped rules and
// dashboard query.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { metricNames } from '../../deploy/monitoring/metricNames';
import { repoRoot } from '../e2e/support/apiserver';
import { getText } from './support/client';

export interface Target {
  labels: { job: string; instance: string };
  health: string;
  lastError: string;
}

export interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

export async function targets(base: string): Promise<Target[]> {
  const r = await getText(`${base}/api/v1/targets?state=active`);
  return (JSON.parse(r.body) as { data: { activeTargets: Target[] } }).data.activeTargets;
}

export async function query(base: string, q: string): Promise<Sample[]> {
  const r = await getText(`${base}/api/v1/query?query=${encodeURIComponent(q)}`);
  const body = JSON.parse(r.body) as { status: string; error?: string; data: { result: Sample[] } };
  if (body.status !== 'success') throw new Error(`query ${q}: ${body.error}`);
  return body.data.result;
}

interface RuleFile {
  groups: { name: string; rules: { record?: string; alert?: string; expr: string }[] }[];
}

export const rulesFile = (): RuleFile => load(readFileSync(join(repoRoot, 'deploy/prometheus/rules.yml'), 'utf8')) as RuleFile;

interface Dashboard {
  panels: { title: string; targets: { expr: string }[] }[];
}

export const dashboardFile = join(repoRoot, 'deploy/grafana/svc-control-plane.json');

/** Every metric name a rule or dashboard query reads (recording-rule outputs excluded), with where. */
export function queriedNames(): Map<string, string> {
  const out = new Map<string, string>();
  const rules = rulesFile();
  const recorded = new Set(rules.groups.flatMap((g) => g.rules.map((r) => r.record).filter((r): r is string => !!r)));
  const add = (expr: string, where: string): void => {
    for (const n of metricNames(expr)) if (!recorded.has(n) && !out.has(n)) out.set(n, where);
  };
  for (const g of rules.groups) for (const r of g.rules) add(r.expr, `rule ${r.record ?? r.alert}`);
  const dash = JSON.parse(readFileSync(dashboardFile, 'utf8')) as Dashboard;
  for (const p of dash.panels) for (const t of p.targets) add(t.expr, `panel "${p.title}"`);
  // Recording rules a dashboard or alert reads must exist.
  for (const g of rules.groups) for (const r of g.rules) for (const n of metricNames(r.expr)) if (n.includes(':') && !recorded.has(n)) out.set(n, `rule ${r.record ?? r.alert} (undefined recording rule)`);
  for (const p of dash.panels) for (const t of p.targets) for (const n of metricNames(t.expr)) if (n.includes(':') && !recorded.has(n)) out.set(n, `panel "${p.title}" (undefined recording rule)`);
  return out;
}
