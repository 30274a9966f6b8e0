// Calls into a watch's handlers, shared by the backends: a handler that throws ends its own
// watch (onError gets the thrown error) instead of breaking delivery to every other watch.

/** Runs fn (an onEvents/onProgress call); on a throw, ends the watch and reports the error. */
export function deliver(fn: () => void, end: () => void, onError: (err: Error) => void): void {
  try {
    fn();
  } catch (err) {
    end();
    reportError(onError, err instanceof Error ? err : new Error(String(err)));
  }
}

/** Calls onError; if that throws too, the error surfaces like any uncaught one, outside our loop. */
export function reportError(onError: (err: Error) => void, err: Error): void {
  try {
    onError(err);
  } catch (again) {
    queueMicrotask(() => {
      throw again;
    });
  }
}
