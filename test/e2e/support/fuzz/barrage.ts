// Runs the cases against one server with bounded concurrency and a per-request deadline, and
// checks every response: it arrives, it is not a 5xx, and a failure from an API URL is a Status
// whose code is the HTTP status.
import * as https from 'node:https';
import * as yaml from 'js-yaml';
import { StatusSchema } from '../../../../lib/api';
import { decodeProtobufEnvelope, decodeProtobufObject } from '../../../../lib/codec/protobuf';
import { javascriptErrorText, outOfScopeJavascriptText, upstreamInternalStatus } from '../../../../lib/apiserver/testing/fuzz/leakJudge';
import type { FuzzCase, Identity } from './fuzzCase';
import { sendRaw } from './rawTls';
import { bodyTypeOf } from './writeBodyCases';

export interface Credentials {
  host: string;
  port: number;
  ca: string;
  admin: { cert: string; key: string };
}

export interface Outcome {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  ms: number;
}

export interface BarrageResult {
  sent: number;
  failures: string[];
  /** HTTP status → count ("500 (as upstream)" for deliberate 500s, "closed"/"error" for no response). */
  statusCounts: Record<string, number>;
  slowest: { name: string; ms: number }[];
}

/** A garbage bearer token sent by the "bearer" identity. */
export const garbageBearer = 'Bearer \u00ff\u00fe.not-a-token.%%%';

function summaryOf(c: FuzzCase): string {
  const ct = c.headers && (c.headers['Content-Type'] ?? c.headers['content-type']);
  const body = c.raw ? c.raw.bytes : c.body;
  const shown = body ? JSON.stringify(body.subarray(0, 80).toString('latin1')) + (body.length > 80 ? `…(${body.length} bytes)` : '') : '';
  return `[${c.name}] ${c.identity ?? 'admin'} ${c.method} ${c.path.slice(0, 160)}${ct ? ` (${String(ct).slice(0, 60)})` : ''}${c.raw ? ' (raw)' : ''} ${shown}`;
}

/** Is this path (as sent) one the API machinery answers with a Status? */
function isApiPath(path: string): boolean {
  const p = path.split('?')[0];
  return /^\/apis?(\/|$)/.test(p);
}

function statusOf(o: Outcome): { kind?: unknown; code?: unknown; reason?: unknown; message?: unknown } | string {
  const text = o.body.toString('utf8');
  const ct = String(o.headers['content-type'] ?? '');
  try {
    // Errors are negotiated like any answer: a client that asked for Protobuf gets a Protobuf Status.
    if (/^application\/vnd\.(svc|kubernetes)\.protobuf/.test(ct)) {
      const env = decodeProtobufEnvelope(o.body);
      return { ...decodeProtobufObject(env.raw, StatusSchema), kind: env.kind };
    }
    const v = ct.startsWith('application/yaml') ? yaml.load(text) : JSON.parse(text);
    if (typeof v !== 'object' || v === null) return `not an object: ${text.slice(0, 100)}`;
    return v as { kind?: unknown; code?: unknown; reason?: unknown; message?: unknown };
  } catch {
    return `unparseable ${ct || 'body'}: ${JSON.stringify(text.slice(0, 100))}`;
  }
}

function contentType(c: FuzzCase): string {
  const h = c.headers ?? {};
  const v = h['Content-Type'] ?? h['content-type'];
  return String(Array.isArray(v) ? v[0] : (v ?? '')).toLowerCase();
}

/**
 * 500s upstream answers on purpose, with the error text and no reason, listed one by one in
 * leakJudge.ts (strategic merge errors interpretStrategicMergePatchError passes through, apply's
 * typed conversion failures, strategicpatch's panics). A create carrying
 * metadata.resourceVersion is a 400 here (docs/decisions.md).
 */
export function isUpstreamInternalError(c: FuzzCase, o: Outcome): boolean {
  if (isImpersonationWithoutUser(o)) return true;
  const type = bodyTypeOf(c.method, contentType(c));
  if (o.status !== 500 || type === undefined) return false;
  const s = statusOf(o);
  return typeof s !== 'string' && s.kind === 'Status' && upstreamInternalStatus(type, s) !== undefined;
}

/**
 * Upstream's responsewriters.InternalError for Impersonate-Group/-Uid/-Extra without
 * Impersonate-User: plain text, not a Status (lib/apiserver/filters/impersonation.ts).
 */
function isImpersonationWithoutUser(o: Outcome): boolean {
  return (
    o.status === 500 &&
    String(o.headers['content-type'] ?? '').startsWith('text/plain') &&
    /^Internal Server Error: ".*": requested \[.*\] without impersonating a user\n$/s.test(o.body.toString('utf8'))
  );
}

/** The JavaScript error text in a Status message or a Warning header, if any. */
function javascriptText(o: Outcome, s: { message?: unknown }): string | undefined {
  const texts = [typeof s.message === 'string' ? s.message : '', [o.headers.warning ?? []].flat().join('\n')];
  const text = texts.find((t) => javascriptErrorText.some((re) => re.test(t)) && !outOfScopeJavascriptText.some((re) => re.test(t)));
  return text?.slice(0, 300);
}

/** What is wrong with this response, or null. */
export function judge(c: FuzzCase, o: Outcome): string | null {
  if (o.status >= 500) return `status ${o.status}: ${o.body.toString('utf8').slice(0, 300)}`;
  if (c.expectStatus !== undefined && o.status !== c.expectStatus) return `status ${o.status}, expected ${c.expectStatus}: ${o.body.toString('utf8').slice(0, 200)}`;
  if (c.mustFail && o.status < 400) return `status ${o.status} for a request that must fail`;
  if (o.status < 300 || c.method === 'HEAD' || !isApiPath(c.path)) return null;
  if (c.protocolLevel && !String(o.headers['content-type'] ?? '').startsWith('application/')) return null;
  const s = statusOf(o);
  if (typeof s === 'string') return `status ${o.status} without a Status body: ${s}`;
  if (s.kind !== 'Status') return `status ${o.status} with kind ${JSON.stringify(s.kind)} instead of Status`;
  if (s.code !== o.status) return `Status.code ${JSON.stringify(s.code)} differs from HTTP status ${o.status}`;
  const js = javascriptText(o, s);
  if (js) return `status ${o.status} with JavaScript error text: ${js}`;
  return null;
}

export class Barrage {
  private readonly agents: Record<'admin' | 'anonymous', https.Agent>;

  constructor(
    private readonly cred: Credentials,
    private readonly opts: { concurrency: number; timeoutMs: number },
  ) {
    this.agents = {
      admin: new https.Agent({ keepAlive: true, maxSockets: opts.concurrency, ca: cred.ca, ...cred.admin }),
      anonymous: new https.Agent({ keepAlive: true, maxSockets: opts.concurrency, ca: cred.ca }),
    };
  }

  close(): void {
    this.agents.admin.destroy();
    this.agents.anonymous.destroy();
  }

  /** Sends one case and waits (bounded) for its response. */
  async send(c: FuzzCase): Promise<Outcome> {
    const started = Date.now();
    const identity: Identity = c.identity ?? 'admin';
    if (c.raw) {
      const r = await sendRaw(
        { host: this.cred.host, port: this.cred.port, ca: this.cred.ca, ...(identity === 'admin' ? this.cred.admin : {}) },
        c.raw.bytes,
        { halfClose: c.raw.halfClose, timeoutMs: this.opts.timeoutMs },
      );
      return { ...r, ms: Date.now() - started };
    }
    const headers: Record<string, string | string[] | number> = { ...c.headers };
    if (c.body && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length' || k.toLowerCase() === 'transfer-encoding')) {
      headers['Content-Length'] = c.body.length;
    }
    if (identity === 'bearer') headers.Authorization = garbageBearer;
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          host: this.cred.host,
          port: this.cred.port,
          method: c.method,
          path: c.path,
          headers: headers as Record<string, string | string[]>,
          agent: identity === 'admin' ? this.agents.admin : this.agents.anonymous,
          timeout: this.opts.timeoutMs,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          // A 2xx stream (an accepted watch) has answered once its headers are here.
          if (status < 300 && res.headers['content-length'] === undefined) {
            resolve({ status, headers: res.headers, body: Buffer.alloc(0), ms: Date.now() - started });
            req.destroy();
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks), ms: Date.now() - started }));
          res.on('error', reject);
        },
      );
      const deadline = setTimeout(() => req.destroy(new Error(`no complete response within ${this.opts.timeoutMs} ms`)), this.opts.timeoutMs);
      req.on('close', () => clearTimeout(deadline));
      req.on('timeout', () => req.destroy(new Error(`socket idle for ${this.opts.timeoutMs} ms`)));
      req.on('error', reject);
      req.end(c.body);
    });
  }

  /** Sends every case, at most `concurrency` at a time, and judges each response. */
  async run(cases: readonly FuzzCase[]): Promise<BarrageResult> {
    const failures: string[] = [];
    const statusCounts: Record<string, number> = {};
    const times: { name: string; ms: number }[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < cases.length) {
        const c = cases[next++];
        let key: string;
        try {
          const o = await this.send(c);
          times.push({ name: summaryOf(c), ms: o.ms });
          if (isUpstreamInternalError(c, o)) {
            key = '500 (as upstream)';
          } else {
            key = String(o.status);
            const why = judge(c, o);
            if (why) failures.push(`${summaryOf(c)} → ${why}`);
          }
        } catch (e) {
          const closed = /closed without a response/.test((e as Error).message);
          key = closed && c.mayClose ? 'closed' : 'error';
          if (key === 'error') failures.push(`${summaryOf(c)} → no response: ${(e as Error).message}`);
        }
        statusCounts[key] = (statusCounts[key] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: this.opts.concurrency }, worker));
    times.sort((a, b) => b.ms - a.ms);
    return { sent: cases.length, failures, statusCounts, slowest: times.slice(0, 5) };
  }
}
