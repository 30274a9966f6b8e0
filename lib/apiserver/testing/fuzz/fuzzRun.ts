// One fuzz run: the targets' objects are created, then `perType` seeded requests of each body
// type are sent one after another (so a seed replays exactly) and every answer is judged.
import type { InjectedRequest, InjectedResponse } from '../injectRequest';
import { judgeAnswer, upstreamInternalError } from './leakJudge';
import { fuzzNamespace, type PatchTarget } from './patchTargets';
import { Prng } from './prng';
import { fuzzRequest, type BodyType, type FuzzRequest } from './writeRequests';

export interface Finding {
  request: FuzzRequest;
  status: number;
  why: string;
}

export interface FuzzRunResult {
  sent: number;
  findings: Finding[];
  /** Status code → count ("500 (as upstream)" for the listed upstream 500s). */
  statusCounts: Record<string, number>;
}

export type Send = (r: InjectedRequest) => Promise<InjectedResponse>;

/** Creates the namespace (unless it exists) and every target object; throws with the answer when one fails. */
export async function createTargets(send: Send, targets: readonly PatchTarget[]): Promise<void> {
  const ns = await send({ method: 'POST', path: '/api/v1/namespaces', headers: { 'Content-Type': 'application/json' }, body: Buffer.from(JSON.stringify({ metadata: { name: fuzzNamespace } })) });
  if (ns.status !== 201 && ns.status !== 409) throw new Error(`creating namespace ${fuzzNamespace}: ${ns.status} ${ns.body.toString()}`);
  for (const t of targets) {
    if (t.subresource) continue;
    for (const name of t.names) {
      const r = await send({ method: 'POST', path: t.collection, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(JSON.stringify(t.object(name))) });
      if (r.status !== 201) throw new Error(`creating ${t.info.kind} ${name}: ${r.status} ${r.body.toString()}`);
    }
  }
}

/**
 * Sends `counts[type]` requests of each body type, interleaved in a seeded order (so each kind
 * of write meets objects the others left behind), one at a time, and judges every answer.
 */
export async function fuzzRun(send: Send, targets: readonly PatchTarget[], counts: Partial<Record<BodyType, number>>, seed: number): Promise<FuzzRunResult> {
  const rng = new Prng(seed);
  const schedule = rng.sample(
    Object.entries(counts).flatMap(([type, n]) => Array.from({ length: n }, () => type as BodyType)),
    Infinity,
  );
  const findings: Finding[] = [];
  const statusCounts: Record<string, number> = {};
  for (const type of schedule) {
    const request = fuzzRequest(rng, type, targets);
    const answer = await send(request);
    const key = upstreamInternalError(type, answer) ? '500 (as upstream)' : String(answer.status);
    statusCounts[key] = (statusCounts[key] ?? 0) + 1;
    const why = judgeAnswer(type, answer);
    if (why) findings.push({ request, status: answer.status, why });
  }
  return { sent: schedule.length, findings, statusCounts };
}

/** A finding as one line: body type, classes, request and what was wrong. */
export function describeFinding(f: Finding): string {
  const r = f.request;
  const body = r.body.length > 160 ? `${r.body.subarray(0, 160).toString('latin1')}…(${r.body.length} bytes)` : r.body.toString('latin1');
  return `[${r.bodyType} ${r.classes.join('+')}] ${r.method} ${r.path} ${JSON.stringify(body)} → ${f.why}`;
}
