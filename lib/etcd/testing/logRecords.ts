// A pino logger at debug level whose records are kept as parsed objects, for tests of what the
// layers below HTTP log (lib/etcd is the lowest layer, so every one of them may use it).
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

export interface LogRecords {
  /** A child logger with `component` set, as the entry points hand out. */
  log: Logger;
  records: Array<Record<string, unknown>>;
  /** The records with this message. */
  withMessage(msg: string): Array<Record<string, unknown>>;
}

export function logRecords(component: string): LogRecords {
  const records: Array<Record<string, unknown>> = [];
  const dest = new Writable({
    write(chunk: Buffer, _e, cb) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) records.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  const log = pino({ level: 'debug' }, dest).child({ component });
  return { log, records, withMessage: (msg) => records.filter((r) => r.msg === msg) };
}
