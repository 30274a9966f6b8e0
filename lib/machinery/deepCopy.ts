// Deep copy with JSON-value semantics: plain objects and arrays are copied, scalars shared.
// Byte arrays and dates are copied too, so a copy never aliases the original. Iterative, so
// documents nested as deep as the JSON decoder allows (10000) cannot overflow the stack.
import { setOwn } from './jsonValue';

export function deepCopy<T>(v: T): T {
  const result: { v: unknown } = { v: undefined };
  const work: { src: unknown; assign: (x: unknown) => void }[] = [{ src: v, assign: (x) => (result.v = x) }];
  for (let w = work.pop(); w; w = work.pop()) {
    const { src, assign } = w;
    if (src === null || typeof src !== 'object') assign(src);
    else if (Array.isArray(src)) {
      const out = new Array<unknown>(src.length);
      assign(out);
      for (let i = 0; i < src.length; i++) work.push({ src: src[i], assign: (x) => (out[i] = x) });
    } else if (src instanceof Uint8Array) assign(new Uint8Array(src));
    else if (src instanceof Date) assign(new Date(src.getTime()));
    else {
      const out: Record<string, unknown> = {};
      assign(out);
      const keys = Object.keys(src);
      // Keys are created now so the copy keeps the original key order.
      for (const k of keys) setOwn(out, k, undefined);
      for (const k of keys) work.push({ src: (src as Record<string, unknown>)[k], assign: (x) => setOwn(out, k, x) });
    }
  }
  return result.v as T;
}
