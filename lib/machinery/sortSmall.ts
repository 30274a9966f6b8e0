// Sorting the few keys of a node or map on a hot path: an insertion sort in place. For short
// arrays it beats Array.prototype.sort, whose every comparison crosses from the builtin into the
// JS comparator and which allocates its work array (docs/perf: 5.9 KB of a create's garbage).
// Longer arrays, where the quadratic worst case would show, still take the builtin.

const insertionSortMax = 16;

/** Sorts `a` in place (stable) and returns it. */
export function sortSmall<T>(a: T[], compare: (x: T, y: T) => number): T[] {
  if (a.length > insertionSortMax) return a.sort(compare);
  for (let i = 1; i < a.length; i++) {
    const v = a[i];
    let j = i;
    while (j > 0 && compare(a[j - 1], v) > 0) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = v;
  }
  return a;
}
