// Structural equality with JSON-value semantics: an object key holding `undefined` counts as
// absent (it would not be serialized), key order is irrelevant, array order matters.
// Iterative, so deeply nested documents cannot overflow the stack.

export function deepEqual(a: unknown, b: unknown): boolean {
  const work: [unknown, unknown][] = [[a, b]];
  for (let w = work.pop(); w; w = work.pop()) {
    const [x, y] = w;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) {
      if (Number.isNaN(x) && Number.isNaN(y)) continue;
      return false;
    }
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) work.push([x[i], y[i]]);
      continue;
    }
    if (x instanceof Uint8Array || y instanceof Uint8Array) {
      if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== y.length) return false;
      if (!x.every((c, i) => c === y[i])) return false;
      continue;
    }
    if (x instanceof Date || y instanceof Date) {
      if (!(x instanceof Date && y instanceof Date && x.getTime() === y.getTime())) return false;
      continue;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    const xk = definedKeys(xo);
    if (xk.length !== definedKeys(yo).length) return false;
    for (const k of xk) {
      if (!Object.prototype.hasOwnProperty.call(yo, k)) return false;
      work.push([xo[k], yo[k]]);
    }
  }
  return true;
}

function definedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).filter((k) => o[k] !== undefined);
}
