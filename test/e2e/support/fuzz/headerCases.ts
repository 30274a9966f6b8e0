// Header-level oddities: bogus Content-Type and Accept, repeated and absurdly long headers,
// Content-Length that lies, Transfer-Encoding oddities and bad Authorization values. Requests an
// HTTP client would refuse or repair are written as raw bytes.
import type { FuzzCase } from './fuzzCase';
import { rawRequest } from './fuzzCase';
import type { Prng } from './prng';
import type { FuzzTarget } from './targets';

export const bogusContentTypes = [
  'application/json; charset=utf-16',
  'application/json; charset="unterminated',
  'application/json;;;',
  'application/json; =x',
  'application/json; q=0',
  'application/*',
  '*/*',
  '*',
  '/',
  ';',
  'application/',
  'text/html',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/vnd.svc.protobuf;stream=watch',
  'application/json-seq',
  'application/apply-patch+yaml',
  'application/apply-patch+cbor',
  'application/cbor',
  'application/json, application/yaml',
  'APPLICATION/JSON',
  'application/json\t',
  'application/yaml; charset=latin1',
  `application/json; x=${'y'.repeat(4000)}`,
];

export const bogusAccepts = [
  'text/html',
  'application/json;q=abc',
  'application/json;q=0',
  '*/*;q=0',
  'application/*;q=0, text/*',
  'application/json;as=Table;g=meta.svc.io;v=v1',
  'application/json;as=Table;v=v1;g=meta.svc.io, application/json',
  'application/json;as=PartialObjectMetadataList;g=meta.svc.io;v=v1',
  'application/json;as=Nope;g=nope;v=v9',
  'application/vnd.svc.protobuf',
  'application/vnd.kubernetes.protobuf;as=Table',
  'application/json;stream=watch',
  'application/yaml;stream=watch',
  ',,,',
  ';;;',
  '*',
  'application',
  'application/json;q=1;q=2',
  'application/json;q=1e400',
  'application/json;q=NaN',
  'application/json;q=-1, application/yaml',
  Array.from({ length: 400 }, (_, i) => `application/x-${i};q=0.${i % 10}`).join(', '),
];

export const bogusAuthorizations = [
  'Bearer',
  'Bearer ',
  'Bearer  ',
  'Bearer a b c',
  `Bearer ${'a'.repeat(8000)}`,
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.',
  'Bearer eyJhbGciOiJIUzI1NiJ9.e30.AAAA',
  'bearer lowercase',
  'Basic',
  'Basic !!!',
  `Basic ${Buffer.from('admin:admin').toString('base64')}`,
  `Basic ${Buffer.from(':').toString('base64')}`,
  'Negotiate YII=',
  'Token xyz',
  'Digest username="a"',
  '\u00ff\u00fe',
  ',',
];

function pickRoute(rng: Prng, t: FuzzTarget): { method: string; path: string; body?: Buffer; mustFail?: boolean } {
  switch (rng.int(0, 3)) {
    case 0:
      return { method: 'GET', path: t.collection };
    case 1:
      return { method: 'GET', path: t.item(t.sentinel) };
    case 2:
      return { method: 'POST', path: t.collection, body: Buffer.from(JSON.stringify(t.template(`fz-${rng.token(10)}`, 'new'))) };
    default:
      return { method: 'PUT', path: t.item(rng.pick(t.victims)), body: Buffer.from(JSON.stringify(t.template(rng.pick(t.victims), 'victim'))) };
  }
}

export function contentTypeCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const ct of bogusContentTypes) {
    for (let i = 0; i < 2; i++) {
      const t = rng.pick(targets);
      const victim = rng.pick(t.victims);
      const body = Buffer.from(JSON.stringify(t.template(i === 0 ? `fz-${rng.token(10)}` : victim, i === 0 ? 'new' : 'victim')));
      out.push({ name: 'header/content-type', method: i === 0 ? 'POST' : rng.pick(['PUT', 'PATCH']), path: i === 0 ? t.collection : t.item(victim), headers: { 'Content-Type': ct }, body });
    }
  }
  return out;
}

export function acceptCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const accept of bogusAccepts) {
    for (let i = 0; i < 2; i++) {
      const r = pickRoute(rng, rng.pick(targets));
      out.push({ name: 'header/accept', ...r, headers: { Accept: accept, ...(r.body ? { 'Content-Type': 'application/json' } : {}) } });
    }
  }
  // A failure answered in a format the client did not ask for, and errors with an odd Accept.
  const t = rng.pick(targets);
  out.push({ name: 'header/accept-on-error', method: 'GET', path: `${t.collection}?limit=abc`, headers: { Accept: 'application/yaml' } });
  out.push({ name: 'header/accept-on-error', method: 'GET', path: `${t.item('does-not-exist')}`, headers: { Accept: 'text/html' } });
  return out;
}

export function authorizationCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const auth of bogusAuthorizations) {
    for (const identity of ['admin', 'anonymous'] as const) {
      const r = pickRoute(rng, rng.pick(targets));
      out.push({ name: 'header/authorization', ...r, identity, headers: { Authorization: auth, ...(r.body ? { 'Content-Type': 'application/json' } : {}) } });
    }
  }
  const t = rng.pick(targets);
  for (const p of ['/readyz', '/healthz', '/version', '/api', '/apis', '/openapi/v2', '/metrics']) {
    out.push({ name: 'header/authorization non-resource', method: 'GET', path: p, identity: 'anonymous', headers: { Authorization: rng.pick(bogusAuthorizations) } });
  }
  out.push({
    name: 'header/authorization repeated',
    method: 'GET',
    path: t.collection,
    raw: { bytes: rawRequest('GET', t.collection, [['Host', 'fuzz'], ['Authorization', 'Bearer a'], ['Authorization', 'Bearer b'], ['Connection', 'close']]) },
  });
  for (const imp of [['Impersonate-User', 'system:admin'], ['Impersonate-Group', 'system:masters'], ['Impersonate-Uid', '\u00ff']] as const) {
    out.push({ name: `header/${imp[0]}`, method: 'GET', path: t.collection, identity: 'anonymous', headers: { [imp[0]]: imp[1] } });
  }
  return out;
}

/** Repeated and oversized headers through the client (where it allows) and raw. */
export function repeatedAndLongHeaderCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  const t = rng.pick(targets);
  const create = (): Buffer => Buffer.from(JSON.stringify(t.template(`fz-${rng.token(10)}`, 'new')));
  out.push({ name: 'header/repeated content-type', method: 'POST', path: t.collection, headers: { 'Content-Type': ['application/yaml', 'application/json'] }, body: create() });
  out.push({ name: 'header/repeated content-type', method: 'POST', path: t.collection, headers: { 'Content-Type': ['text/plain', 'application/json'] }, body: create() });
  out.push({ name: 'header/repeated accept', method: 'GET', path: t.collection, headers: { Accept: ['text/html', 'application/yaml'] } });
  out.push({ name: 'header/repeated accept', method: 'GET', path: t.item(t.sentinel), headers: { Accept: ['application/json;as=Table;g=meta.svc.io;v=v1', 'nope/nope'] } });
  out.push({ name: 'header/many headers', method: 'GET', path: t.collection, headers: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`X-Fuzz-${i}`, rng.token(8)])) });
  out.push({ name: 'header/long accept', method: 'GET', path: t.collection, headers: { Accept: `${'x/y;q=0.1, '.repeat(1200)}application/json` } });
  out.push({ name: 'header/long value under limit', method: 'GET', path: t.item(t.sentinel), headers: { 'X-Fuzz': 'v'.repeat(12_000) } });
  out.push({ name: 'header/long user-agent', method: 'GET', path: t.collection, headers: { 'User-Agent': `curl/${'9'.repeat(10_000)}` } });
  // Upstream serves heads up to 1 MiB (MaxHeaderBytes 1 << 20): past Node's 16 KiB default, still served.
  out.push({ name: 'header/20 KiB header', method: 'GET', path: t.collection, headers: { 'X-Fuzz': 'v'.repeat(20_000) }, identity: 'admin', expectStatus: 200 });
  out.push({ name: 'header/900 KiB header', method: 'GET', path: t.collection, headers: { 'X-Fuzz': 'v'.repeat(900_000) }, identity: 'admin', expectStatus: 200 });
  // Past the limit (Go reads up to MaxHeaderBytes + 4096 before the head must be complete): the
  // parser answers 431 and closes lingering, so the client reads it while still writing.
  out.push({ name: 'header/over 1 MiB header', method: 'GET', path: t.collection, headers: { 'X-Fuzz': 'v'.repeat((1 << 20) + 8192) }, protocolLevel: true, expectStatus: 431 });
  const rawCases: [string, [string, string][], string | Buffer, boolean?][] = [
    ['repeated content-length (same)', [['Content-Length', '2'], ['Content-Length', '2']], '{}'],
    ['repeated content-length (differ)', [['Content-Length', '2'], ['Content-Length', '3']], '{}'],
    ['repeated host', [['Host', 'other']], ''],
    ['repeated content-type raw', [['Content-Type', 'application/yaml'], ['Content-Type', 'application/json'], ['Content-Length', '2']], '{}'],
    ['header without colon', [['X-Broken\u0000', 'x']], ''],
    ['obs-fold', [['X-Folded', 'a\r\n b']], ''],
    ['space before colon', [['Content-Type ', 'application/json'], ['Content-Length', '2']], '{}'],
    ['empty header name', [['', 'x']], ''],
    ['utf8 header value', [['X-Fuzz', Buffer.from('ñ名', 'utf8').toString('latin1')]], ''],
    ['nul in header value', [['X-Fuzz', 'a\u0000b']], ''],
    ['bare cr in header', [['X-Fuzz', 'a\rb']], ''],
  ];
  for (const [what, headers, body] of rawCases) {
    const method = body ? 'POST' : 'GET';
    out.push({
      name: `header/${what}`,
      method,
      path: t.collection,
      raw: { bytes: rawRequest(method, t.collection, [['Host', 'fuzz'], ...headers, ['Connection', 'close']], body) },
      protocolLevel: true,
    });
  }
  return out;
}

/** Content-Length that lies and Transfer-Encoding oddities (raw bytes). */
export function framingCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const t of targets) {
    const body = Buffer.from(JSON.stringify(t.template(`fz-${rng.token(10)}`, 'new')));
    const h = (extra: [string, string][]): [string, string][] => [['Host', 'fuzz'], ['Content-Type', 'application/json'], ...extra];
    const cases: [string, [string, string][], Buffer | string, boolean][] = [
      ['content-length short body, half-closed', h([['Content-Length', String(body.length + 50)]]), body, true],
      ['content-length longer than body', h([['Content-Length', String(body.length - 5)], ['Connection', 'close']]), body, false],
      ['content-length zero with body', h([['Content-Length', '0'], ['Connection', 'close']]), body, false],
      ['content-length negative', h([['Content-Length', '-1'], ['Connection', 'close']]), body, false],
      ['content-length not a number', h([['Content-Length', 'abc'], ['Connection', 'close']]), body, false],
      ['content-length plus sign', h([['Content-Length', `+${body.length}`], ['Connection', 'close']]), body, false],
      ['content-length huge', h([['Content-Length', '99999999999999999999999'], ['Connection', 'close']]), body, true],
      ['content-length list', h([['Content-Length', `${body.length}, ${body.length}`], ['Connection', 'close']]), body, false],
      ['content-length hex', h([['Content-Length', `0x${body.length.toString(16)}`], ['Connection', 'close']]), body, false],
      ['chunked', h([['Transfer-Encoding', 'chunked'], ['Connection', 'close']]), chunkOf(body), false],
      ['chunked and content-length', h([['Transfer-Encoding', 'chunked'], ['Content-Length', String(body.length)], ['Connection', 'close']]), chunkOf(body), false],
      ['chunked twice', h([['Transfer-Encoding', 'chunked, chunked'], ['Connection', 'close']]), chunkOf(body), false],
      ['gzip, chunked (not gzipped)', h([['Transfer-Encoding', 'gzip, chunked'], ['Connection', 'close']]), chunkOf(body), false],
      ['chunked, gzip', h([['Transfer-Encoding', 'chunked, gzip'], ['Connection', 'close']]), chunkOf(body), false],
      ['identity', h([['Transfer-Encoding', 'identity'], ['Connection', 'close']]), body, true],
      ['unknown coding', h([['Transfer-Encoding', 'frobnicate'], ['Connection', 'close']]), body, true],
      ['Chunked uppercase', h([['Transfer-Encoding', 'CHUNKED'], ['Connection', 'close']]), chunkOf(body), false],
      ['chunked, bad size', h([['Transfer-Encoding', 'chunked'], ['Connection', 'close']]), `zz\r\n${body.toString()}\r\n0\r\n\r\n`, false],
      ['chunked, size too big, half-closed', h([['Transfer-Encoding', 'chunked']]), `ffff\r\n${body.toString()}`, true],
      ['chunked, negative size', h([['Transfer-Encoding', 'chunked'], ['Connection', 'close']]), `-5\r\nabcde\r\n0\r\n\r\n`, false],
      ['chunked, huge size', h([['Transfer-Encoding', 'chunked'], ['Connection', 'close']]), `ffffffffffffffffffff\r\nab\r\n0\r\n\r\n`, false],
      ['chunked, extension', h([['Transfer-Encoding', 'chunked'], ['Connection', 'close']]), `${body.length.toString(16)};ext="x"\r\n${body.toString()}\r\n0\r\n\r\n`, false],
      ['chunked, trailer', h([['Transfer-Encoding', 'chunked'], ['Connection', 'close']]), `${body.length.toString(16)}\r\n${body.toString()}\r\n0\r\nX-Trailer: y\r\n\r\n`, false],
      ['chunked, no terminator, half-closed', h([['Transfer-Encoding', 'chunked']]), `${body.length.toString(16)}\r\n${body.toString()}\r\n`, true],
      ['content-encoding gzip (plain body)', h([['Content-Encoding', 'gzip'], ['Content-Length', String(body.length)], ['Connection', 'close']]), body, false],
      ['expect 100-continue', h([['Expect', '100-continue'], ['Content-Length', String(body.length)], ['Connection', 'close']]), body, false],
      ['expect garbage', h([['Expect', 'teapot'], ['Content-Length', String(body.length)], ['Connection', 'close']]), body, false],
      ['http/1.0 without length', [['Content-Type', 'application/json']], body, true],
    ];
    for (const [what, headers, payload, halfClose] of cases) {
      const bytes = what.startsWith('http/1.0')
        ? Buffer.concat([Buffer.from(`POST ${t.collection} HTTP/1.0\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`), Buffer.from(payload)])
        : rawRequest('POST', t.collection, headers, payload);
      out.push({ name: `framing/${what}`, method: 'POST', path: t.collection, raw: { bytes, halfClose }, protocolLevel: true });
    }
  }
  return out;
}

function chunkOf(body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
}
