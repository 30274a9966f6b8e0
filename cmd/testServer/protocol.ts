// Messages between startTestServer (the test's thread) and the worker thread running the server.

export interface WorkerInput {
  /** svc-apiserver flags, exactly as on the command line. */
  argv: string[];
}

export type FromWorker =
  | { type: 'ready'; port: number }
  | { type: 'failed'; message: string; log: string[] }
  | { type: 'stopped' };

export type ToWorker = { type: 'stop' };
