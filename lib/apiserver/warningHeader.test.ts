import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { warningHeaderValues } from './warningHeader';

/** Header values as a Go client reads them (UTF-8; Node hands them over one byte per character). */
const read = (values: string[]): string[] => values.map((v) => Buffer.from(v, 'latin1').toString('utf8'));

describe('one Warning header per text, as upstream recorder and NewWarningHeader write them', () => {
  test.each([
    // Upstream's Test_recorder_AddWarning (the agent is always "-" here).
    ['none', [], []],
    ['an empty text', [''], []],
    ['one', ['mytext'], ['299 - "mytext"']],
    ['a repeated text once', ['mytext', 'mytext'], ['299 - "mytext"']],
    ['several, in order', ['mytext1', 'mytext2', 'mytext3'], ['299 - "mytext1"', '299 - "mytext2"', '299 - "mytext3"']],
    ['a newline: no header', ['my\ntext'], []],
    // Only `"` and `\` are escaped (makeQuotedString); control characters drop the text (unicode.IsControl).
    ['quotes and backslashes escaped', ['unknown field "spec.x\\y"'], ['299 - "unknown field \\"spec.x\\\\y\\""']],
    ['a tab: no header', ['tab\there'], []],
    ['NUL: no header', ['nul\u0000'], []],
    ['DEL: no header', ['del\u007f'], []],
    ['a C1 control: no header', ['next\u0085line'], []],
    ['other non-printable characters stay as they are', ['zero\u200bwidth'], ['299 - "zero\u200bwidth"']],
    ['not valid UTF-8 (a lone surrogate): no header', ['half \ud800'], []],
    ['a bad text does not stop the others', ['ok1', 'bad\n', 'ok2'], ['299 - "ok1"', '299 - "ok2"']],
  ])('%s', (_name, texts, want) => {
    expect(read(warningHeaderValues(texts))).toEqual(want);
  });
});

describe('truncation (upstream TestTruncation, with its limits of 25 runes in all and 5 per warning)', () => {
  const limits = { totalRunes: 25, itemRunes: 5 };
  const first = ['aaaaaaaaaa', 'aaaaaaaaaa', 'bb', 'ccc', 'Iñtërnâtiô'];
  const then = ['e', 'ffffffffff', 'ffffffffff', 'gggggggggg', 'h'];

  test('within the limit, every text in full', () => {
    expect(read(warningHeaderValues(first, limits))).toEqual(['299 - "aaaaaaaaaa"', '299 - "bb"', '299 - "ccc"', '299 - "Iñtërnâtiô"']);
  });

  test('the text that passes it cuts every text to 5 runes; later ones are cut and kept until 25 runes went out', () => {
    expect(read(warningHeaderValues([...first, ...then], limits))).toEqual([
      '299 - "aaaaa"',
      '299 - "bb"',
      '299 - "ccc"',
      '299 - "Iñtër"',
      '299 - "e"',
      '299 - "fffff"',
      '299 - "ggggg"',
    ]);
  });
});

describe("upstream's own limits: 4 Ki runes in all, 256 per warning, counted in runes", () => {
  test('4096 three-byte runes fit in one header; one more rune cuts it to 256', () => {
    const fits = '名'.repeat(4096);
    expect(read(warningHeaderValues([fits]))).toEqual([`299 - "${fits}"`]);
    expect(read(warningHeaderValues([fits + '!']))).toEqual([`299 - "${'名'.repeat(256)}"`]);
  });

  test('a 20 KB warning becomes 256 runes: a header any client reads', () => {
    const values = warningHeaderValues(['deprecated', `policy says: ${'x'.repeat(20_000)}`, 'a later one, kept while under 4 Ki runes']);
    expect(read(values)).toEqual(['299 - "deprecated"', `299 - "policy says: ${'x'.repeat(256 - 13)}"`, '299 - "a later one, kept while under 4 Ki runes"']);
  });

  test('astral characters (two UTF-16 units each) count as one rune and are never split', () => {
    const emoji = '😀'.repeat(5000);
    expect(read(warningHeaderValues([emoji]))).toEqual([`299 - "${'😀'.repeat(256)}"`]);
  });
});

test("non-Latin-1 text reaches the client as the UTF-8 of upstream's quoting, not a thrown error", async () => {
  const text = 'unknown field "apiVrsion" in rbac.authorizItion.svÑ.io/v1 名前';
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { Warning: warningHeaderValues([text]) });
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const raw = await new Promise<Buffer>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/' }, (res) => {
        // Node decodes header bytes as Latin-1; a Go client reads them as UTF-8.
        resolve(Buffer.from(String(res.headers.warning), 'latin1'));
        res.resume();
      }).on('error', reject);
    });
    expect(raw.toString('utf8')).toBe('299 - "unknown field \\"apiVrsion\\" in rbac.authorizItion.svÑ.io/v1 名前"');
  } finally {
    await new Promise((r) => server.close(r));
  }
});
