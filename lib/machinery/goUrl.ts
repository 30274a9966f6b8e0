// The parts of Go's net/url that Kubernetes exposes through CEL (url(), isURL, format uri):
// ParseRequestURI's acceptance and error texts, and the URL accessors. Written after Go's
// net/url (parse, getScheme, parseAuthority, parseHost, shouldEscape, unescape).

export interface GoURL {
  scheme: string;
  opaque: string;
  /** host or host:port, IPv6 in brackets */
  host: string;
  /** unescaped */
  path: string;
  rawPath: string;
  rawQuery: string;
  fragment: string;
}

export class GoURLError extends Error {}

type Mode = 'path' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

const isAlnum = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');

function shouldEscape(c: string, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  if ((mode === 'host' || mode === 'zone') && "!$&'()*+,;=:[]<>\"".includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    if (mode === 'path') return c === '?';
    if (mode === 'userPassword') return '@/?:'.includes(c);
    if (mode === 'queryComponent') return true;
    if (mode === 'fragment') return false;
  }
  if (mode === 'fragment' && "!()*".includes(c)) return false;
  return true;
}

const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);

function unescape(s: string, mode: Mode): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === '%') {
      if (!isHex(s[i + 1]) || !isHex(s[i + 2])) throw new GoURLError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 3;
      continue;
    }
    if (c === '+' && mode === 'queryComponent') bytes.push(0x20);
    else {
      if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && shouldEscape(c, mode)) {
        throw new GoURLError(`invalid character ${JSON.stringify(c)} in host name`);
      }
      for (const b of Buffer.from(c, 'utf8')) bytes.push(b);
    }
    i++;
  }
  return Buffer.from(bytes).toString('utf8');
}

function escape(s: string, mode: Mode): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    if (b < 0x80 && !shouldEscape(c, mode)) out += c;
    else if (c === ' ' && mode === 'queryComponent') out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function validEncoded(s: string, mode: Mode): boolean {
  for (const c of s) {
    if ("!$&'()*+,;=:@[]%".includes(c)) continue;
    if (c.charCodeAt(0) >= 0x80 || shouldEscape(c, mode)) return false;
  }
  return true;
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if ((c >= '0' && c <= '9') || c === '+' || c === '-' || c === '.') {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new GoURLError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function validUserinfo(s: string): boolean {
  for (const c of s) {
    if (isAlnum(c) || "-._:~!$&'()*+,;=%@".includes(c)) continue;
    return false;
  }
  return true;
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new GoURLError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new GoURLError(`invalid port ${JSON.stringify(colonPort)} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) {
      const h1 = unescape(host.slice(0, zone), 'host');
      const h2 = unescape(host.slice(zone, i), 'zone');
      const h3 = unescape(host.slice(i), 'host');
      return h1 + h2 + h3;
    }
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new GoURLError(`invalid port ${JSON.stringify(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

function parseAuthority(authority: string): string {
  const i = authority.lastIndexOf('@');
  const host = parseHost(i < 0 ? authority : authority.slice(i + 1));
  if (i >= 0 && !validUserinfo(authority.slice(0, i))) throw new GoURLError('net/url: invalid userinfo');
  return host;
}

function parse(rawURL: string, viaRequest: boolean): GoURL {
  if (/[\x00-\x1f\x7f]/.test(rawURL)) throw new GoURLError('net/url: invalid control character in URL');
  if (rawURL === '' && viaRequest) throw new GoURLError('empty url');
  const u: GoURL = { scheme: '', opaque: '', host: '', path: '', rawPath: '', rawQuery: '', fragment: '' };
  if (rawURL === '*') {
    u.path = '*';
    return u;
  }
  let [scheme, rest] = getScheme(rawURL);
  u.scheme = scheme.toLowerCase();
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      u.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (u.scheme !== '') {
      u.opaque = rest;
      return u;
    }
    if (viaRequest) throw new GoURLError('invalid URI for request');
    const colon = rest.indexOf(':');
    const slash = rest.indexOf('/');
    if (colon >= 0 && (slash < 0 || colon < slash)) throw new GoURLError('first path segment in URL cannot contain colon');
  }
  if ((u.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const i = authority.indexOf('/');
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    u.host = parseAuthority(authority);
  }
  u.path = unescape(rest, 'path');
  u.rawPath = escape(u.path, 'path') === rest ? '' : rest;
  return u;
}

function withError(raw: string, f: () => GoURL): GoURL {
  try {
    return f();
  } catch (e) {
    throw new GoURLError(`parse ${JSON.stringify(raw)}: ${(e as Error).message}`);
  }
}

/** url.ParseRequestURI: an absolute URI or an absolute path; a fragment is not split off. */
export function parseRequestURI(raw: string): GoURL {
  return withError(raw, () => parse(raw, true));
}

/** url.Parse */
export function parseURL(raw: string): GoURL {
  return withError(raw, () => {
    const hash = raw.indexOf('#');
    const u = parse(hash < 0 ? raw : raw.slice(0, hash), false);
    if (hash >= 0) u.fragment = unescape(raw.slice(hash + 1), 'fragment');
    return u;
  });
}

function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = '';
  const colon = hostPort.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(hostPort.slice(colon))) {
    host = hostPort.slice(0, colon);
    port = hostPort.slice(colon + 1);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

export const urlHostname = (u: GoURL): string => splitHostPort(u.host)[0];
export const urlPort = (u: GoURL): string => splitHostPort(u.host)[1];

export function urlEscapedPath(u: GoURL): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath, 'path')) {
    try {
      if (unescape(u.rawPath, 'path') === u.path) return u.rawPath;
    } catch {
      // fall through to the escaped form
    }
  }
  if (u.path === '*') return '*';
  return escape(u.path, 'path');
}

/** url.Values from RawQuery: keys and values unescaped; pairs with bad escapes or ';' are dropped. */
export function urlQuery(u: GoURL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of u.rawQuery.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const [k, v] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    try {
      const key = unescape(k, 'queryComponent');
      const value = unescape(v, 'queryComponent');
      out.set(key, [...(out.get(key) ?? []), value]);
    } catch {
      continue;
    }
  }
  return out;
}
