import { continueTokenAfter, decodeContinueToken, encodeContinueToken, goPathClean } from './continueToken';
import { ApiError } from './errors';

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');

describe('encodeContinueToken', () => {
  test.each<[number, string, string]>([
    // The computed example of watch-and-list.md §3.
    [12345, 'csr-b\u0000', 'eyJ2IjoibWV0YS5zdmMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoiY3NyLWJcdTAwMDAifQ'],
    // The list response example of §2.
    [51420, 'csr-b\u0000', 'eyJ2IjoibWV0YS5zdmMuaW8vdjEiLCJydiI6NTE0MjAsInN0YXJ0IjoiY3NyLWJcdTAwMDAifQ'],
    [-1, 'ns1/sa-b\u0000', b64('{"v":"meta.svc.io/v1","rv":-1,"start":"ns1/sa-b\\u0000"}')],
    // Go's json escapes HTML characters and U+2028.
    [7, 'a<b>&\u2028"\\', b64('{"v":"meta.svc.io/v1","rv":7,"start":"a\\u003cb\\u003e\\u0026\\u2028\\"\\\\"}')],
  ])('rv %d start %j', (rv, start, token) => {
    expect(encodeContinueToken(rv, start)).toBe(token);
    expect(token).not.toMatch(/[=+/]/);
    expect(decodeContinueToken(token)).toEqual({ rv, start });
  });

  test('continueTokenAfter appends NUL to the last key', () => {
    expect(continueTokenAfter(12345, 'csr-b')).toBe(encodeContinueToken(12345, 'csr-b\u0000'));
  });
});

describe('decodeContinueToken: accepted variants', () => {
  test.each<[string, { rv: number; start: string }]>([
    [b64('{"v":"meta.svc.io/v1","rv":5,"start":"/a"}'), { rv: 5, start: 'a' }],
    [b64('{"start":"a","rv":5,"v":"meta.svc.io/v1","extra":1}'), { rv: 5, start: 'a' }],
    [b64('{"V":"meta.svc.io/v1","RV":5,"Start":"a"}'), { rv: 5, start: 'a' }],
    [b64(' {"v":"meta.svc.io/v1","rv":5,"start":"a","start":"b"} '), { rv: 5, start: 'b' }],
  ])('%s', (token, want) => {
    expect(decodeContinueToken(token)).toEqual(want);
  });
});

const prefix = 'invalid continue token: continue key is not valid';

describe('decodeContinueToken: 400 texts', () => {
  test.each([
    ['abc=', `${prefix}: illegal base64 data at input byte 3`],
    ['a', `${prefix}: illegal base64 data at input byte 0`],
    ['ab+c', `${prefix}: illegal base64 data at input byte 2`],
    ['', `${prefix}: unexpected end of JSON input`],
    [b64('x'), `${prefix}: invalid character 'x' looking for beginning of value`],
    [b64('{"v":1}'), `${prefix}: json: cannot unmarshal number into Go struct field continueToken.v of type string`],
    [b64('{"v":"meta.svc.io/v1","rv":"5","start":"a"}'), `${prefix}: json: cannot unmarshal string into Go struct field continueToken.rv of type int64`],
    [b64('{"v":"meta.svc.io/v1","rv":1.5,"start":"a"}'), `${prefix}: json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64`],
    [b64('[1]'), `${prefix}: json: cannot unmarshal array into Go value of type storage.continueToken`],
    [b64('{"v":"meta.svc.io/v1","rv":5,"start":"a"'), `${prefix}: unexpected end of JSON input`],
    [b64('{"v":"meta.k8s.io/v1","rv":5,"start":"a"}'), `${prefix}: server does not recognize this encoded version meta.k8s.io/v1`],
    [b64('{"rv":5,"start":"a"}'), `${prefix}: server does not recognize this encoded version `],
    [b64('{"v":"meta.svc.io/v1","rv":0,"start":"a"}'), `${prefix}: incorrect encoded start resourceVersion (version meta.svc.io/v1)`],
    [b64('{"v":"meta.svc.io/v1","start":"a"}'), `${prefix}: incorrect encoded start resourceVersion (version meta.svc.io/v1)`],
    [b64('{"v":"meta.svc.io/v1","rv":5}'), `${prefix}: encoded start key empty (version meta.svc.io/v1)`],
    [b64('{"v":"meta.svc.io/v1","rv":5,"start":"../x"}'), `${prefix}: ../x`],
    [b64('{"v":"meta.svc.io/v1","rv":5,"start":"a//b"}'), `${prefix}: a//b`],
    [b64('{"v":"meta.svc.io/v1","rv":5,"start":"a/"}'), `${prefix}: a/`],
    [b64('{"v":"meta.svc.io/v1","rv":5,"start":"a/./b"}'), `${prefix}: a/./b`],
  ])('%j', (token, message) => {
    let err: unknown;
    try {
      decodeContinueToken(token);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(400);
    expect((err as ApiError).status.message).toBe(message);
  });
});

describe('goPathClean', () => {
  test.each([
    ['', '.'],
    ['/', '/'],
    ['/a/b', '/a/b'],
    ['/a/../b', '/b'],
    ['/../a', '/a'],
    ['a/../../b', '../b'],
    ['/a//b/', '/a/b'],
    ['./a', 'a'],
  ])('%j → %j', (p, want) => {
    expect(goPathClean(p)).toBe(want);
  });
});
