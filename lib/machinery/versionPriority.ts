// Orders API versions the way upstream prefers them (first = preferred): GA before beta before
// alpha, higher numbers first within each; versions not of the v<N>[alpha|beta<M>] form last,
// alphabetically.
const kubeVersion = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

function rank(v: string): [number, number, number] | null {
  const m = kubeVersion.exec(v);
  if (!m) return null;
  const stage = m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0;
  return [stage, Number(m[1]), m[3] === undefined ? 0 : Number(m[3])];
}

/** Comparator: negative when a is preferred over b. */
export function compareVersionPriority(a: string, b: string): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra && rb) {
    for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return rb[i] - ra[i];
    return 0;
  }
  if (ra) return -1;
  if (rb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
