// Shared by the client-node scripts the e2e suite runs as a user would (plain Node, ESM):
// argv[2] is the kubeconfig; each step's outcome is one JSON line on stdout.
import * as k8s from '@kubernetes/client-node';

export function kubeConfig(): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(process.argv[2]);
  return kc;
}

export interface StepResult {
  step: string;
  ok: boolean;
  /** HTTP status and the Status message when the call failed. */
  error?: string;
  value?: unknown;
}

/** The status code and message of a client-node failure. */
export function describeError(e: unknown): string {
  const err = e as { code?: number; body?: unknown; message?: string };
  let message = err.message ?? String(e);
  if (typeof err.body === 'string') {
    try {
      message = (JSON.parse(err.body) as { message?: string }).message ?? err.body;
    } catch {
      message = err.body;
    }
  }
  return `${err.code ?? '?'} ${message}`.slice(0, 400);
}

/** Runs each step in order and prints its result; a failed step does not stop the later ones. */
export async function runSteps(steps: ReadonlyArray<[string, () => Promise<unknown>]>): Promise<void> {
  for (const [step, fn] of steps) {
    let r: StepResult;
    try {
      r = { step, ok: true, value: await fn() };
    } catch (e) {
      r = { step, ok: false, error: describeError(e) };
    }
    process.stdout.write(`${JSON.stringify(r)}\n`);
  }
}
