// Splits a byte stream of concatenated JSON objects into documents. Our server writes one per
// line, but nothing guarantees chunk boundaries fall between lines (or between the bytes of one
// UTF-8 character), and upstream's framer accepts any whitespace between documents, so we scan
// brackets outside strings instead of splitting on newlines.
import { StringDecoder } from 'node:string_decoder';

export class JsonStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonStreamError';
  }
}

export class JsonDocumentSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private buf = '';
  /** Scan position in buf; everything before it has been classified. */
  private pos = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private broken?: JsonStreamError;

  /**
   * Feeds a chunk; returns the documents it completed, as text, and the error that stopped the
   * scan if the bytes stopped being JSON (documents before the bad byte are still returned).
   */
  push(chunk: Buffer | string): { documents: string[]; error?: JsonStreamError } {
    if (this.broken) return { documents: [], error: this.broken };
    this.buf += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const out: string[] = [];
    let start = 0;
    let i = this.pos;
    for (; i < this.buf.length; i++) {
      const c = this.buf.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true; // backslash
        else if (c === 0x22) this.inString = false;
        continue;
      }
      if (this.depth === 0) {
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
          start = i + 1;
          continue;
        }
        if (c !== 0x7b && c !== 0x5b) {
          this.broken = new JsonStreamError(`invalid character ${JSON.stringify(this.buf[i])} looking for beginning of value`);
          return { documents: out, error: this.broken };
        }
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) {
        this.depth--;
        if (this.depth === 0) {
          out.push(this.buf.slice(start, i + 1));
          start = i + 1;
        }
      }
    }
    this.buf = this.buf.slice(start);
    this.pos = i - start;
    return { documents: out };
  }

  /** Call at end of stream: throws when a document was left unfinished. */
  end(): void {
    if (this.broken) throw this.broken;
    this.buf += this.decoder.end();
    if (this.buf.trim() !== '') throw new JsonStreamError('unexpected end of JSON input');
  }
}
