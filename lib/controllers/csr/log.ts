// What the CSR controllers log through. cmd/controller-manager adapts its logger to this; tests
// record it. Levels follow upstream's use: debug for expected retries (klog V(4)), info for
// decisions, error for failed syncs.

export type LogFn = (message: string, fields?: Record<string, unknown>) => void;

export interface ControllerLog {
  debug: LogFn;
  info: LogFn;
  error: LogFn;
}

const ignore: LogFn = () => undefined;

export const silentLog: ControllerLog = { debug: ignore, info: ignore, error: ignore };
