// Byte helpers shared by the backends.

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  return Buffer.compare(a, b) === 0;
}
