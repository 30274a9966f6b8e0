// The request body, up to --max-request-bytes. Read with 'data'/'end' listeners rather than an
// async iterator: the iterator costs a generator, a promise per chunk and an AsyncResource per
// request. Over the limit it stops listening but neither destroys the request nor the socket, so
// the 413 still reaches the client (Node discards the rest of the body after the response).
import type { Readable } from 'node:stream';
import { ApiError, errors } from '../machinery/errors';

/** What readBody needs of an HTTP/1.1 IncomingMessage or an HTTP/2 compatibility request. */
export type BodySource = Readable & { readonly headers: Readonly<Record<string, string | string[] | undefined>> };

export function readBody(req: BodySource, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? -1);
  if (declared > limit) return Promise.reject(errors.requestEntityTooLarge(`limit is ${limit}`));
  // Already read to its end by someone else: nothing more will come (as the iterator yielded nothing).
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (req.destroyed) return Promise.reject(readError(req.errored ?? new Error('aborted')));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        stop();
        reject(errors.requestEntityTooLarge(`limit is ${limit}`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = (err: Error): void => {
      stop();
      reject(readError(err));
    };
    // Destroyed without an error event (the client went away): the body will never end.
    const onClose = (): void => {
      stop();
      reject(readError(req.errored ?? new Error('aborted')));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

// The client went away mid-body: nobody will read the answer, and it is not a server fault.
function readError(err: Error): ApiError {
  return err instanceof ApiError ? err : errors.badRequest(`error reading the request body: ${err.message}`);
}
