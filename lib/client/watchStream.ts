// A watch response as an async iterable of events. Like client-go's StreamWatcher: the stream
// ending, or the connection dropping mid-stream, simply ends the iteration (the caller resumes
// from its last resourceVersion); an ERROR event carrying a Status is thrown as ClientApiError
// after the events before it; bytes that do not decode are thrown as JsonStreamError.
import type { Readable } from 'node:stream';
import type { ApiObject, Status } from '../api/meta';
import { ClientApiError, ClientTransportError, RequestIdentity } from './errors';
import { JsonDocumentSplitter, JsonStreamError } from './jsonDocuments';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

export interface WatchEvent<T extends ApiObject = ApiObject> {
  type: WatchEventType;
  object: T;
}

/** What watch() gives: iterate it once; stop() ends it (a `break` out of for-await does too). */
export interface WatchStream<T extends ApiObject = ApiObject> extends AsyncIterable<WatchEvent<T>> {
  stop(): void;
}

const eventTypes: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK']);
/** Events buffered before the socket is paused; reading resumes below the low mark. */
const highWater = 1024;
const lowWater = 256;

/** The typed error an ERROR event's object stands for. */
export function watchErrorFromObject(object: unknown, request?: RequestIdentity): Error {
  if (typeof object === 'object' && object !== null && (object as { kind?: unknown }).kind === 'Status') {
    return new ClientApiError(object as Status, request);
  }
  return new ClientTransportError(`watch ERROR event with unexpected object: ${JSON.stringify(object)}`, { code: 'EDECODE', request });
}

export class ResponseWatchStream<T extends ApiObject = ApiObject> implements WatchStream<T> {
  private readonly splitter = new JsonDocumentSplitter();
  private readonly queue: WatchEvent<T>[] = [];
  private failure?: Error;
  private ended = false;
  private paused = false;
  private iterated = false;
  private waiter?: () => void;

  /** `abort` tears the connection down (called once, on stop or after a failure). */
  constructor(
    private readonly body: Readable,
    private readonly abort: () => void,
    private readonly request?: RequestIdentity,
  ) {
    body.on('data', (chunk: Buffer) => this.onData(chunk));
    body.on('end', () => {
      try {
        this.splitter.end();
      } catch (e) {
        this.fail(e as Error);
      }
      this.finish();
    });
    // A reset or aborted connection is a normal end for a watch: the caller resumes.
    body.on('error', () => this.finish());
    body.on('close', () => this.finish());
  }

  stop(): void {
    this.queue.length = 0;
    this.failure = undefined;
    this.finish();
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    if (this.iterated) throw new Error('a watch stream can be iterated only once');
    this.iterated = true;
    return {
      next: () => this.next(),
      return: async () => {
        this.stop();
        return { done: true, value: undefined };
      },
    };
  }

  private async next(): Promise<IteratorResult<WatchEvent<T>>> {
    for (;;) {
      const event = this.queue.shift();
      if (event) {
        if (this.paused && this.queue.length < lowWater) {
          this.paused = false;
          this.body.resume();
        }
        return { done: false, value: event };
      }
      if (this.failure) {
        const f = this.failure;
        this.failure = undefined;
        throw f;
      }
      if (this.ended) return { done: true, value: undefined };
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  private onData(chunk: Buffer): void {
    if (this.ended) return;
    const { documents, error } = this.splitter.push(chunk);
    for (const doc of documents) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(doc);
      } catch (e) {
        this.fail(new JsonStreamError(`unable to decode an event from the watch stream: ${(e as Error).message}`));
        this.finish();
        return;
      }
      const { type, object } = (parsed ?? {}) as { type?: unknown; object?: unknown };
      if (type === 'ERROR') {
        this.fail(watchErrorFromObject(object, this.request));
        this.finish();
        return;
      }
      if (typeof type !== 'string' || !eventTypes.has(type) || typeof object !== 'object' || object === null) {
        this.fail(new JsonStreamError(`unable to decode an event from the watch stream: unexpected event ${doc.slice(0, 200)}`));
        this.finish();
        return;
      }
      this.queue.push({ type: type as WatchEventType, object: object as T });
    }
    if (error) {
      this.fail(error);
      this.finish();
      return;
    }
    if (this.queue.length >= highWater && !this.paused) {
      this.paused = true;
      this.body.pause();
    }
    this.wake();
  }

  private fail(e: Error): void {
    this.failure ??= e;
  }

  private finish(): void {
    if (!this.ended) {
      this.ended = true;
      this.abort();
    }
    this.wake();
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }
}
