// Reading an audit log (one JSON Event per line) written by the server, and its rotated backups.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from './apiserver';

export interface AuditEventLine {
  kind: string;
  apiVersion: string;
  level: string;
  auditID: string;
  stage: string;
  requestURI: string;
  verb: string;
  user: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: Record<string, string>;
  responseStatus?: { metadata: Record<string, never>; status?: string; message?: string; reason?: string; code?: number };
  requestObject?: Record<string, unknown>;
  responseObject?: Record<string, unknown>;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** Every event in the file; a missing file is empty. Throws on a line that is not one JSON object. */
export function readAuditLog(path: string): AuditEventLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AuditEventLine);
}

/** Waits until the log holds the event of `stage` for auditID (the writer is asynchronous); returns all events of that request. */
export async function auditEventsOf(path: string, auditID: string, stage = 'ResponseComplete'): Promise<AuditEventLine[]> {
  return eventually(
    async () => {
      const events = readAuditLog(path).filter((e) => e.auditID === auditID);
      return events.some((e) => e.stage === stage) ? events : undefined;
    },
    10_000,
    `audit event ${stage} of ${auditID}`,
  );
}

/** lumberjack's backup names next to `<dir>/<base>.log`: `<base>-2006-01-02T15-04-05.000.log`. */
export function auditBackups(dir: string, base = 'audit'): string[] {
  const re = new RegExp(`^${base}-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d\\.\\d{3}\\.log$`);
  return readdirSync(dir)
    .filter((f) => re.test(f))
    .sort()
    .map((f) => join(dir, f));
}
