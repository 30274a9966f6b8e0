import { parseRequestURI, parseURL, urlEscapedPath, urlHostname, urlPort, urlQuery } from './goUrl';

// Cases after Go's net/url url_test.go (ParseRequestURI acceptance, errors, accessors).
describe('parseRequestURI', () => {
  it.each([
    'http://foo.com',
    'http://foo.com/',
    'http://foo.com/path',
    'http://user:pass@foo.com:8080/p?q=1',
    '/absolute/path',
    '*',
    'mailto:someone@example.com',
    'http://[fe80::1%25en0]/',
    'http://[::1]:8080/x',
    'https://example.com/path with spaces/',
  ])('accepts %s', (raw) => {
    expect(() => parseRequestURI(raw)).not.toThrow();
  });

  it.each<[string, string]>([
    ['', 'parse "": empty url'],
    ['../relative', 'parse "../relative": invalid URI for request'],
    ['foo.html', 'parse "foo.html": invalid URI for request'],
    [':x', 'parse ":x": missing protocol scheme'],
    ['https://a:b:c/', 'parse "https://a:b:c/": invalid port ":c" after host'],
    ['http://[::1/', `parse "http://[::1/": missing ']' in host`],
    ['http://foo.com/%zz', 'parse "http://foo.com/%zz": invalid URL escape "%zz"'],
    ['http://a b.com/', 'parse "http://a b.com/": invalid character " " in host name'],
    ['http://foo.com/\nbar', 'parse "http://foo.com/\\nbar": net/url: invalid control character in URL'],
    ['http://us^er@foo.com/', 'parse "http://us^er@foo.com/": net/url: invalid userinfo'],
  ])('refuses %j: %s', (raw, message) => {
    expect(() => parseRequestURI(raw)).toThrow(message);
  });
});

describe('URL accessors', () => {
  it('splits host and port, unescapes the query, escapes the path', () => {
    const u = parseURL('HTTPS://user@[::1]:443/a%2Fb/c d?x=1&x=2&y=a+b&bad=%zz&;z=1#frag');
    expect(u.scheme).toBe('https');
    expect(u.host).toBe('[::1]:443');
    expect(urlHostname(u)).toBe('::1');
    expect(urlPort(u)).toBe('443');
    // RawPath "/a%2Fb/c d" is not a valid encoding (the space), so Go escapes Path again
    expect(urlEscapedPath(u)).toBe('/a/b/c%20d');
    expect(urlEscapedPath(parseURL('http://h/a%2Fb'))).toBe('/a%2Fb');
    expect(Object.fromEntries(urlQuery(u))).toEqual({ x: ['1', '2'], y: ['a b'] });
    expect(u.fragment).toBe('frag');
  });
});
