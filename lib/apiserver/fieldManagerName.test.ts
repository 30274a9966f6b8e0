import { managerOrUserAgent } from './fieldManagerName';

describe('managerOrUserAgent', () => {
  it.each<[string, string, string, string]>([
    ['fieldManager wins', 'mine', 'kubectl/v1.32.0 (linux/amd64)', 'mine'],
    ['User-Agent product', '', 'kubectl/v1.32.0 (linux/amd64) kubernetes/abc', 'kubectl'],
    ['no slash: the whole agent', '', 'curl', 'curl'],
    ['non-printable dropped', '', 'a\tb\u0007c/1', 'abc'],
    ['empty agent', '', '', ''],
    ['cut at 128 bytes', '', 'x'.repeat(200), 'x'.repeat(128)],
    ['a multi-byte rune that would cross the limit is dropped', '', 'x'.repeat(127) + 'é', 'x'.repeat(127)],
  ])('%s', (_n, fm, ua, want) => {
    expect(managerOrUserAgent(fm, ua)).toBe(want);
  });
});
