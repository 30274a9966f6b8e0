// The Warning header of a response: upstream's `299 - "<text>"`, the text quoted as Go's
// strconv.Quote does (printable Unicode kept, the rest escaped). Go writes header values as raw
// UTF-8 bytes; Node refuses characters above U+00FF in a header and writes each one as a single
// byte, so the UTF-8 bytes are passed one character per byte.

import { goQuote } from '../machinery/goStrconv';

export function warningHeaderValue(text: string): string {
  return Buffer.from(`299 - ${goQuote(text)}`, 'utf8').toString('latin1');
}
