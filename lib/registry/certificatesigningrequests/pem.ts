// PEM decoding with Go's encoding/pem semantics (upstream validates CSR requests and issued
// certificates with it): text around blocks is skipped, a malformed block is skipped and the
// search goes on, "Key: Value" lines after BEGIN are headers.

export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Buffer;
}

const pemStart = Buffer.from('\n-----BEGIN ');
const pemEnd = Buffer.from('\n-----END ');
const pemEndOfLine = Buffer.from('-----');

function startsWith(data: Buffer, prefix: Buffer): boolean {
  return data.length >= prefix.length && data.subarray(0, prefix.length).equals(prefix);
}

function endsWith(data: Buffer, suffix: Buffer): boolean {
  return data.length >= suffix.length && data.subarray(data.length - suffix.length).equals(suffix);
}

function trimRightSpaceTab(b: Buffer): Buffer {
  let n = b.length;
  while (n > 0 && (b[n - 1] === 0x20 || b[n - 1] === 0x09)) n--;
  return b.subarray(0, n);
}

/** One line (without "\n" or "\r\n", trailing spaces/tabs trimmed) and the rest. */
function getLine(data: Buffer): [Buffer, Buffer] {
  let i = data.indexOf(0x0a);
  let j: number;
  if (i < 0) {
    i = data.length;
    j = i;
  } else {
    j = i + 1;
    if (i > 0 && data[i - 1] === 0x0d) i--;
  }
  return [trimRightSpaceTab(data.subarray(0, i)), data.subarray(j)];
}

const base64Std = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Go's base64.StdEncoding: padding required, CR and LF ignored, nothing else tolerated. */
function decodeBase64Strict(data: Buffer): Buffer | null {
  const text = data.toString('latin1').replace(/[\r\n]/g, '');
  if (!base64Std.test(text)) return null;
  return Buffer.from(text, 'base64');
}

function trimSpace(s: string): string {
  return s.replace(/^[\s\u0085\u00a0]+|[\s\u0085\u00a0]+$/g, '');
}

/**
 * Finds the next PEM block in `data`. Returns the block and the bytes after it, or
 * null when no (well-formed) block remains.
 */
export function decodePem(data: Buffer): { block: PemBlock; rest: Buffer } | null {
  let rest = data;
  for (;;) {
    if (startsWith(rest, pemStart.subarray(1))) {
      rest = rest.subarray(pemStart.length - 1);
    } else {
      const at = rest.indexOf(pemStart);
      if (at < 0) return null;
      rest = rest.subarray(at + pemStart.length);
    }

    let typeLine: Buffer;
    [typeLine, rest] = getLine(rest);
    if (!endsWith(typeLine, pemEndOfLine)) continue;
    typeLine = typeLine.subarray(0, typeLine.length - pemEndOfLine.length);

    const headers: Record<string, string> = {};
    let headerCount = 0;
    let ended = false;
    for (;;) {
      if (rest.length === 0) {
        ended = true;
        break;
      }
      const [line, next] = getLine(rest);
      const colon = line.indexOf(0x3a);
      if (colon < 0) break;
      headers[trimSpace(line.subarray(0, colon).toString('latin1'))] = trimSpace(line.subarray(colon + 1).toString('latin1'));
      headerCount++;
      rest = next;
    }
    if (ended) return null;

    let endIndex: number;
    let endTrailerIndex: number;
    // Without headers the END line may follow immediately, without a leading newline.
    if (headerCount === 0 && startsWith(rest, pemEnd.subarray(1))) {
      endIndex = 0;
      endTrailerIndex = pemEnd.length - 1;
    } else {
      endIndex = rest.indexOf(pemEnd);
      endTrailerIndex = endIndex + pemEnd.length;
    }
    if (endIndex < 0) continue;

    // After "-----END " come the same type and five dashes, then only whitespace.
    let endTrailer = rest.subarray(endTrailerIndex);
    const endTrailerLen = typeLine.length + pemEndOfLine.length;
    if (endTrailer.length < endTrailerLen) continue;
    const restOfEndLine = endTrailer.subarray(endTrailerLen);
    endTrailer = endTrailer.subarray(0, endTrailerLen);
    if (!startsWith(endTrailer, typeLine) || !endsWith(endTrailer, pemEndOfLine)) continue;
    if (getLine(restOfEndLine)[0].length !== 0) continue;

    const body = Buffer.from(rest.subarray(0, endIndex).filter((c) => c !== 0x20 && c !== 0x09));
    const bytes = decodeBase64Strict(body);
    if (!bytes) continue;

    // pemEnd is matched without its leading newline when the block was empty.
    const after = getLine(rest.subarray(endIndex + pemEnd.length - 1))[1];
    return { block: { type: typeLine.toString('latin1'), headers, bytes }, rest: after };
  }
}
