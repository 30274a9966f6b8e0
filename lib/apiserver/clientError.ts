// Answers requests Node's HTTP parser rejects before a handler sees them (oversized or malformed
// heads, request timeouts), the way Go's server does: a plain-text status line, then a lingering
// close. Node's default writes the answer and destroys the socket at once; a client still sending
// its oversized head then gets a TCP reset that can discard the 431 before it reads it.
import type { Duplex } from 'node:stream';

/** Go's net/http waits this long for the peer to finish sending before it closes (rstAvoidanceDelay). */
export const lingerMs = 500;

/** Upstream's header limit: kube-apiserver serves with MaxHeaderBytes 1 << 20. */
export const maxHeaderBytes = 1 << 20;

const answered = new WeakSet<Duplex>();

/** Status line for a parser error code, as Node and Go map them. */
export function clientErrorStatus(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request Header Fields Too Large'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Payload Too Large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request Timeout'];
    default:
      return [400, 'Bad Request'];
  }
}

/** A `clientError` listener for an http(s).Server. */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // The parser reports again for every later chunk of the same connection; answer once.
  if (answered.has(socket)) return;
  answered.add(socket);
  socket.on('error', () => undefined);
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [code, text] = clientErrorStatus(err.code);
  const body = `${code} ${text}`;
  socket.write(`HTTP/1.1 ${code} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
  socket.end();
  // Drain what the client is still sending so the close is a FIN, not a reset, then let go.
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
