// Continue tokens (watch-and-list.md §3): base64url without padding of the compact JSON
// {"v":"meta.svc.io/v1","rv":N,"start":"<key relative to the list prefix>"}, written and read
// as upstream's storage package does, so any replica (or upstream tooling) understands them.
import { groups } from '../api/product';
import { errors } from './errors';
import { GoJsonSyntaxError, goJsonKindWord, goJsonQuoteString, goUnmarshalTypeError, parseGoJsonTree } from './goJson';
import { goParseInt64 } from './goStrconv';

export const continueTokenVersion = `${groups.meta}/v1`;

export interface ContinuePosition {
  /** Revision the paginated list is pinned to; negative means "latest" (never 0). */
  rv: number;
  /** Key to resume at (inclusive), relative to the list prefix. */
  start: string;
}

/** Token for the next page; `start` is normally the last returned key + "\0". */
export function encodeContinueToken(rv: number, start: string): string {
  const json = `{"v":${goJsonQuoteString(continueTokenVersion)},"rv":${Math.trunc(rv)},"start":${goJsonQuoteString(start)}}`;
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** The token for the key after `lastKey` (relative to the list prefix). */
export function continueTokenAfter(rv: number, lastKey: string): string {
  return encodeContinueToken(rv, `${lastKey}\u0000`);
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64.RawURLEncoding.DecodeString, including its error positions; \r and \n are skipped. */
function decodeRawURLBase64(s: string): Uint8Array {
  const vals: number[] = [];
  const positions: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\r' || c === '\n') continue;
    const v = alphabet.indexOf(c);
    if (v < 0 || s.charCodeAt(i) > 0x7f) throw new Error(`illegal base64 data at input byte ${byteOffset(s, i)}`);
    vals.push(v);
    positions.push(i);
  }
  if (vals.length % 4 === 1) throw new Error(`illegal base64 data at input byte ${byteOffset(s, positions[positions.length - 1])}`);
  const out: number[] = [];
  for (let i = 0; i < vals.length; i += 4) {
    const q = vals.slice(i, i + 4);
    const n = (q[0] << 18) | ((q[1] ?? 0) << 12) | ((q[2] ?? 0) << 6) | (q[3] ?? 0);
    out.push((n >> 16) & 255);
    if (q.length > 2) out.push((n >> 8) & 255);
    if (q.length > 3) out.push(n & 255);
  }
  return Uint8Array.from(out);
}

function byteOffset(s: string, i: number): number {
  return Buffer.byteLength(s.slice(0, i), 'utf8');
}

/** Go's path.Clean. */
export function goPathClean(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
    } else out.push(seg);
  }
  const joined = out.join('/');
  if (rooted) return `/${joined}`;
  return joined === '' ? '.' : joined;
}

const invalidKey = 'continue key is not valid';

/** The token's fields, read as Go's json.Unmarshal into the token struct would. */
function unmarshalToken(data: Uint8Array): { v: string; rv: number; start: string } {
  const tree = parseGoJsonTree(data);
  const out = { v: '', rv: 0, start: '' };
  if (tree.kind === 'null') return out;
  if (tree.kind !== 'object') throw new Error(goUnmarshalTypeError(goJsonKindWord(tree), 'storage.continueToken'));
  let firstError: string | undefined;
  const typeError = (value: string, field: string, goType: string): void => {
    firstError ??= goUnmarshalTypeError(value, goType, { struct: 'continueToken', field });
  };
  for (const { key, value } of tree.members) {
    // encoding/json matches field names case-insensitively.
    const k = key.toLowerCase();
    if (value.kind === 'null') continue;
    if (k === 'v' || k === 'start') {
      if (value.kind === 'string') out[k] = value.value;
      else typeError(goJsonKindWord(value), k, 'string');
    } else if (k === 'rv') {
      if (value.kind !== 'number') typeError(goJsonKindWord(value), 'rv', 'int64');
      else {
        const n = goParseInt64(value.text);
        if (n.ok) out.rv = Number(n.value);
        else typeError(`number ${value.text}`, 'rv', 'int64');
      }
    }
  }
  if (firstError) throw new Error(firstError);
  return out;
}

/**
 * Reads a continue token; any problem is a 400 `invalid continue token: …` with upstream's
 * texts (errors.md §9). The start key comes back relative to the list prefix.
 */
export function decodeContinueToken(token: string): ContinuePosition {
  const bad = (detail: string): never => {
    throw errors.badRequest(`invalid continue token: ${detail}`);
  };
  let t: { v: string; rv: number; start: string };
  try {
    t = unmarshalToken(decodeRawURLBase64(token));
  } catch (e) {
    const msg = e instanceof GoJsonSyntaxError || e instanceof Error ? e.message : String(e);
    return bad(`${invalidKey}: ${msg}`);
  }
  if (t.v !== continueTokenVersion) return bad(`${invalidKey}: server does not recognize this encoded version ${t.v}`);
  if (t.rv === 0) return bad(`${invalidKey}: incorrect encoded start resourceVersion (version ${continueTokenVersion})`);
  if (t.start === '') return bad(`${invalidKey}: encoded start key empty (version ${continueTokenVersion})`);
  // Path traversal defence: the key may not climb above the list prefix.
  const key = t.start.startsWith('/') ? t.start : `/${t.start}`;
  const cleaned = goPathClean(key);
  if (cleaned !== key) return bad(`${invalidKey}: ${t.start}`);
  return { rv: t.rv, start: cleaned.slice(1) };
}
