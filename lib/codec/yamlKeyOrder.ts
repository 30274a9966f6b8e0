// The order Go's yaml.v2 writes map keys in (its keyList.Less): letters after non-letters,
// runs of digits compared as numbers. Upstream YAML responses are JSON converted through a
// generic map, so every mapping comes out in this order, not in field order.

const isLetter = (ch: string): boolean => /\p{L}/u.test(ch);
const isDigit = (ch: string): boolean => /\p{Nd}/u.test(ch);

export function yamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return (ar[i].codePointAt(0) ?? 0) < (br[i].codePointAt(0) ?? 0);
    if (al || bl) return bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10n + BigInt((ar[ai].codePointAt(0) ?? 48) - 48);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10n + BigInt((br[bi].codePointAt(0) ?? 48) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return (ar[i].codePointAt(0) ?? 0) < (br[i].codePointAt(0) ?? 0);
  }
  return ar.length < br.length;
}

export function compareYAMLKeys(a: string, b: string): number {
  if (yamlKeyLess(a, b)) return -1;
  if (yamlKeyLess(b, a)) return 1;
  return 0;
}
