import { SharedValues } from './sharedValues';

/** n views of one buffer, each 4 bytes. */
function views(n: number): Uint8Array[] {
  const buf = new ArrayBuffer(4 * n);
  return Array.from({ length: n }, (_, i) => new Uint8Array(buf, 4 * i, 4));
}

describe('SharedValues', () => {
  test('a value that is a buffer of its own is not tracked', () => {
    const s = new SharedValues();
    const own = new Uint8Array(4);
    s.adopt('a', own);
    expect(s.size).toBe(0);
    expect(s.release(own)).toBeUndefined();
  });

  test('views of one buffer are tracked together; fewer than half left in place asks for the rest to be copied', () => {
    const s = new SharedValues();
    const v = views(4);
    v.forEach((x, i) => s.adopt(`k${i}`, x));
    expect(s.size).toBe(1);
    expect(s.holds(v[0])).toBe(true);
    expect(s.release(v[0])).toBeUndefined(); // 3 of 4 left
    expect(s.release(v[1])).toBeUndefined(); // 2 of 4: still half
    expect(s.release(v[2])).toEqual(['k0', 'k1', 'k2', 'k3']); // 1 of 4: copy out (the caller checks which still hold a view)
    expect(s.size).toBe(0);
    expect(s.holds(v[3])).toBe(false);
    expect(s.release(v[3])).toBeUndefined(); // forgotten
  });

  test('the last view going releases the buffer with nothing to copy', () => {
    const s = new SharedValues();
    const v = views(1).concat(views(1));
    // Two buffers, each holding one value that spans it whole: not shared, not tracked.
    v.forEach((x, i) => s.adopt(`k${i}`, x));
    expect(s.size).toBe(0);
    const w = views(2);
    s.adopt('a', w[0]);
    s.adopt('b', w[1]);
    expect(s.release(w[0])).toBeUndefined();
    expect(s.release(w[1])).toBeUndefined(); // none left: nothing to copy
    expect(s.size).toBe(0);
  });

  test('clear forgets every buffer', () => {
    const s = new SharedValues();
    views(3).forEach((x, i) => s.adopt(`k${i}`, x));
    s.clear();
    expect(s.size).toBe(0);
  });
});
