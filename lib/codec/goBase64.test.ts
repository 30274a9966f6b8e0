import { decodeGoBase64 } from './goBase64';

describe('decodeGoBase64 (Go StdEncoding offsets)', () => {
  it.each([
    ['', ''],
    ['YQ==', 'a'],
    ['YWI=', 'ab'],
    ['YWJj', 'abc'],
    ['YW\r\nJj\n', 'abc'],
    ['YQ=\n=', 'a'],
  ])('%j decodes', (input, out) => expect(decodeGoBase64(input).toString()).toBe(out));

  it.each([
    ['YQ', 0],
    ['YWJ', 0],
    ['YWJjY', 4],
    ['Y!==', 1],
    ['=QQQ', 0],
    ['Y===', 1],
    ['YQ=', 3],
    ['YQ=x', 2],
    ['YQ==YQ==', 4],
    ['YWI=x', 4],
    ['YW é', 2],
  ])('%j fails at byte %d', (input, offset) => {
    expect(() => decodeGoBase64(input)).toThrow(`illegal base64 data at input byte ${offset}`);
  });
});
