// []byte fields travel as standard padded base64. Go's decoder skips \r and \n, rejects
// everything else outside the alphabet, and reports the offending byte offset
// ("illegal base64 data at input byte N"); this reproduces its offsets exactly.

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const decodeMap = new Int16Array(256).fill(-1);
for (let i = 0; i < alphabet.length; i++) decodeMap[alphabet.charCodeAt(i)] = i;

const PAD = 0x3d;
const isNewline = (c: number): boolean => c === 0x0a || c === 0x0d;

export class Base64Error extends Error {
  constructor(readonly offset: number) {
    super(`illegal base64 data at input byte ${offset}`);
    this.name = 'Base64Error';
  }
}

/** Decodes like Go's base64.StdEncoding.DecodeString, throwing Base64Error on bad input. */
export function decodeGoBase64(s: string): Buffer {
  const src = Buffer.from(s, 'utf8');
  const out: number[] = [];
  let si = 0;
  while (si < src.length) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let j = 0;
    let done = false;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Buffer.from(out);
        throw new Base64Error(si - j); // padding is mandatory: an unfinished quantum is corrupt
      }
      const c = src[si++];
      const d = decodeMap[c];
      if (d >= 0) {
        dbuf[j] = d;
        continue;
      }
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== PAD) throw new Base64Error(si - 1);
      // Padding: only valid as the third and/or fourth character of the last quantum.
      if (j === 0 || j === 1) throw new Base64Error(si - 1);
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) throw new Base64Error(src.length);
        if (src[si] !== PAD) throw new Base64Error(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) throw new Base64Error(si); // trailing garbage
      dlen = j;
      done = true;
      break;
    }
    const val = (dbuf[0] << 18) | (dbuf[1] << 12) | (dbuf[2] << 6) | dbuf[3];
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    out.push(...bytes.slice(0, dlen - 1));
    if (done) break;
  }
  return Buffer.from(out);
}
