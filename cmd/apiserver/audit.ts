// --audit-log-path / --audit-policy-file: the policy, the log writer, and their metrics.
import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { AuditLogWriter, loadPolicy, type AuditEvent, type Policy } from '../../lib/audit';
import type { ApiServerMetrics } from '../../lib/apiserver/metrics';
import type { ApiServerOptions } from './options';

export interface AuditBackend {
  policy: Policy;
  write(ev: AuditEvent): void;
  close(): Promise<void>;
}

/** Undefined without both flags: with no policy upstream logs nothing. */
export async function startAudit(opts: ApiServerOptions, metrics: ApiServerMetrics, log: Logger): Promise<AuditBackend | undefined> {
  const { logPath, policyFile } = opts.audit;
  if (!logPath || !policyFile) {
    if (logPath) log.warn('--audit-log-path without --audit-policy-file: no audit events are written (as upstream)');
    return undefined;
  }
  const policy = loadPolicy(await readFile(policyFile, 'utf8'), { warn: (msg) => log.warn({ file: policyFile }, msg) });
  const writer = new AuditLogWriter({
    path: logPath,
    maxSizeMB: opts.audit.maxSizeMB,
    maxBackups: opts.audit.maxBackups,
    maxAgeDays: opts.audit.maxAgeDays,
    bufferEvents: opts.audit.bufferEvents,
    onWritten: (n) => metrics.auditEvents.inc(n),
    onDropped: (n) => metrics.auditErrors.inc({ plugin: 'log' }, n),
    onError: (err, n) => {
      metrics.auditErrors.inc({ plugin: 'log' }, n);
      log.error({ err: err.message }, 'audit log write failed');
    },
  });
  await writer.open();
  log.info({ path: logPath, policy: policyFile, rules: policy.rules?.length ?? 0 }, 'audit logging enabled');
  return {
    policy,
    write: (ev) => {
      writer.write(ev);
    },
    close: () => writer.close(),
  };
}
