// Seeded mutations of valid CBOR bodies of every served kind through decode(): each one is
// either decoded or a 400 Status with a message, never another exception (no 500s, no crashes).
import { builtinStrategies } from '../registry/builtin';
import { isApiError } from '../machinery/errors';
import { encodeCBOR } from './cborEncode';
import { decode } from './decode';
import { normalize } from './normalize';

/** mulberry32: a small seeded PRNG, so a failure replays. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const interesting = [0x00, 0x17, 0x18, 0x1b, 0x1f, 0x3f, 0x40, 0x5f, 0x60, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc2, 0xd6, 0xd9, 0xf4, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xff];

function mutate(body: Buffer, rnd: () => number): Buffer {
  const b = Buffer.from(body);
  switch (Math.floor(rnd() * 4)) {
    case 0: // overwrite a few bytes
      for (let i = 0; i < 1 + Math.floor(rnd() * 3); i++) b[Math.floor(rnd() * b.length)] = rnd() < 0.5 ? interesting[Math.floor(rnd() * interesting.length)] : Math.floor(rnd() * 256);
      return b;
    case 1: // truncate
      return b.subarray(0, Math.floor(rnd() * b.length));
    case 2: {
      // duplicate a slice in place
      const at = Math.floor(rnd() * b.length);
      const len = Math.floor(rnd() * 16);
      return Buffer.concat([b.subarray(0, at), b.subarray(at, at + len), b.subarray(at)]);
    }
    default: // insert a byte
      {
        const at = Math.floor(rnd() * b.length);
        return Buffer.concat([b.subarray(0, at), Buffer.from([interesting[Math.floor(rnd() * interesting.length)]]), b.subarray(at)]);
      }
  }
}

describe('CBOR decoder under seeded mutations', () => {
  test.each(builtinStrategies.map((s) => [s.resource.kind, s.resource] as const))('%s: decoded or a 400, nothing else', (_kind, r) => {
    const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
    const obj = normalize({ apiVersion, kind: r.kind, metadata: { name: 'x', labels: { a: 'b' }, annotations: { c: 'd' } } }, r.schema);
    const body = encodeCBOR(obj, r.schema);
    const rnd = prng(0x5eed + r.kind.length);
    let rejected = 0;
    for (let i = 0; i < 400; i++) {
      const input = mutate(body, rnd);
      try {
        decode(input, { contentType: 'application/cbor', cbor: true, schema: r.schema, gvk: { group: r.group, version: r.version, kind: r.kind }, fieldValidation: i % 2 ? 'Strict' : 'Warn' });
      } catch (e) {
        if (!isApiError(e)) throw new Error(`mutation ${i} (${input.toString('hex')}) threw ${String(e)}`);
        expect(e.code).toBe(400);
        expect(e.status.message).toBeTruthy();
        rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(0);
  });
});
