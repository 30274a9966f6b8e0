import { CsvParseError, parseCsv, type CsvRecord } from './csv';

describe('parseCsv (Go encoding/csv with variable field counts)', () => {
  test.each<[string, string, CsvRecord[]]>([
    ['plain records', 'a,b,c\nd,e\n', [{ fields: ['a', 'b', 'c'], line: 1 }, { fields: ['d', 'e'], line: 2 }]],
    ['no final newline', 'a,b', [{ fields: ['a', 'b'], line: 1 }]],
    ['CRLF line ends', 'a,b\r\nc,d\r\n', [{ fields: ['a', 'b'], line: 1 }, { fields: ['c', 'd'], line: 2 }]],
    ['a trailing \\r before EOF is dropped', 'a,b\r', [{ fields: ['a', 'b'], line: 1 }]],
    ['a lone \\r inside a field stays', 'a\rb,c\n', [{ fields: ['a\rb', 'c'], line: 1 }]],
    ['empty lines are skipped, line numbers still count them', '\n\na,b\n\r\n\nc\n', [{ fields: ['a', 'b'], line: 3 }, { fields: ['c'], line: 6 }]],
    ['spaces are kept', ' a , b ', [{ fields: [' a ', ' b '], line: 1 }]],
    ['empty fields', ',,\n', [{ fields: ['', '', ''], line: 1 }]],
    ['quoted field with commas', 'tok,user,uid,"g1,g2"\n', [{ fields: ['tok', 'user', 'uid', 'g1,g2'], line: 1 }]],
    ['doubled quotes escape a quote', '"say ""hi""",x', [{ fields: ['say "hi"', 'x'], line: 1 }]],
    ['empty quoted field', '"",x\n', [{ fields: ['', 'x'], line: 1 }]],
    ['quoted field spanning lines (CRLF becomes LF)', '"a\r\nb",c\nd\n', [{ fields: ['a\nb', 'c'], line: 1 }, { fields: ['d'], line: 3 }]],
    ['a # line is an ordinary record', '# token,user\n', [{ fields: ['# token', 'user'], line: 1 }]],
    ['non-ASCII', 'tök,ünïcode\n', [{ fields: ['tök', 'ünïcode'], line: 1 }]],
    ['nothing', '', []],
  ])('%s', (_n, text, want) => {
    expect(parseCsv(text)).toEqual(want);
  });

  test.each<[string, string, string, [number, number, number]]>([
    ['bare quote in an unquoted field', 'a,b"c,d\n', 'parse error on line 1, column 4: bare " in non-quoted-field', [1, 1, 4]],
    ['bare quote column counts bytes', 'é,x"\n', 'parse error on line 1, column 5: bare " in non-quoted-field', [1, 1, 5]],
    ['text after a closing quote', '"a"b,c\n', 'parse error on line 1, column 3: extraneous or missing " in quoted-field', [1, 1, 3]],
    ['unterminated quote across lines', 'x\n"abc\ndef\n', 'record on line 2; parse error on line 3, column 5: extraneous or missing " in quoted-field', [2, 3, 5]],
    ['unterminated quote on the last line', '"abc', 'parse error on line 1, column 5: extraneous or missing " in quoted-field', [1, 1, 5]],
  ])('%s', (_n, text, message, [startLine, line, column]) => {
    let err: unknown;
    try {
      parseCsv(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CsvParseError);
    expect((err as CsvParseError).message).toBe(message);
    expect([(err as CsvParseError).startLine, (err as CsvParseError).line, (err as CsvParseError).column]).toEqual([startLine, line, column]);
  });
});
