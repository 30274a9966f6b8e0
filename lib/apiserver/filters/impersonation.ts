// The impersonation filter (upstream apiserver/pkg/endpoints/filters/impersonation.go): the
// Impersonate-User, -Group, -Uid and -Extra-<key> headers ask to act as another identity. Each
// part is authorized for the authenticated requestor with verb "impersonate"; only when all are
// allowed does the request go on as the new user. Runs between authentication and authorization.
import type { IncomingMessage } from 'node:http';
import { groups as apiGroups } from '../../api/product';
import type { AuthorizationAttributes, Authorizer } from '../../auth/authorizer';
import { parseServiceAccountUsername, serviceAccountGroups, serviceAccountUsername } from '../../auth/serviceaccount';
import { groupNames, userNames } from '../../auth/user';
import { setOwn } from '../../machinery/jsonValue';
import type { UserInfo } from '../../registry/strategy';
import { forbiddenFor } from './authorization';

/** The header names, lower-cased as Node reports them (upstream authenticationv1.Impersonate*Header). */
const impersonationHeaders = {
  user: 'impersonate-user',
  group: 'impersonate-group',
  uid: 'impersonate-uid',
  extraPrefix: 'impersonate-extra-',
} as const;

/** One identity part the requestor asks for (upstream builds an ObjectReference per part). */
type ImpersonationRequest =
  | { kind: 'User'; name: string }
  | { kind: 'ServiceAccount'; namespace: string; name: string }
  | { kind: 'Group'; name: string }
  | { kind: 'UserExtra'; key: string; value: string }
  | { kind: 'UID'; uid: string };

export type ImpersonationOutcome =
  | { kind: 'none' }
  | { kind: 'impersonating'; user: UserInfo }
  /** Groups, extras or a uid without a user: upstream answers a plain-text 500 (responsewriters.InternalError) with this text. */
  | { kind: 'malformed'; message: string };

/**
 * Checks the request's impersonation headers against the authorizer. Throws the 403 (upstream's
 * responsewriters.Forbidden with the acting-as attributes) for the first part not allowed.
 */
export function impersonate(req: Pick<IncomingMessage, 'headers' | 'rawHeaders'>, requestor: UserInfo, authorizer: Authorizer): ImpersonationOutcome {
  const headers = impersonationHeaderValues(req.rawHeaders);
  if (!headers) return { kind: 'none' };
  const parsed = buildImpersonationRequests(headers);
  if ('error' in parsed) return { kind: 'malformed', message: parsed.error };
  // An empty Impersonate-User alone asks for nothing: the request goes on as it came.
  if (parsed.requests.length === 0) return { kind: 'none' };
  const user = authorizeImpersonation(parsed.requests, headers.groups.length > 0, requestor, authorizer);
  removeImpersonationHeaders(req);
  return { kind: 'impersonating', user };
}

/** What the impersonation headers say, in the order they came; null when there are none. */
interface ImpersonationHeaderValues {
  /** Every Impersonate-User value; upstream reads the first (Header.Get). */
  users: string[];
  groups: string[];
  uids: string[];
  /** Per extra header: its lower-cased key still escaped, and one value per header line. */
  extras: { key: string; values: string[] }[];
}

/**
 * Reads the headers from the raw list: Node joins repeated unknown headers with ", ", which would
 * merge two groups into one. Values are the header's bytes read as UTF-8, as Go sees them.
 */
function impersonationHeaderValues(rawHeaders: readonly string[]): ImpersonationHeaderValues | null {
  let out: ImpersonationHeaderValues | null = null;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    // Every request passes here: most headers are passed over on their first letter.
    if ((rawHeaders[i].charCodeAt(0) | 0x20) !== 0x69) continue;
    const name = rawHeaders[i].toLowerCase();
    if (!isImpersonationHeader(name)) continue;
    const value = Buffer.from(rawHeaders[i + 1], 'latin1').toString('utf8');
    const h = (out ??= { users: [], groups: [], uids: [], extras: [] });
    if (name === impersonationHeaders.user) h.users.push(value);
    else if (name === impersonationHeaders.group) h.groups.push(value);
    else if (name === impersonationHeaders.uid) h.uids.push(value);
    else {
      // Header names are tokens (ASCII); Go's canonical form lower-cased is this.
      const key = name.slice(impersonationHeaders.extraPrefix.length);
      const entry = h.extras.find((e) => e.key === key);
      if (entry) entry.values.push(value);
      else h.extras.push({ key, values: [value] });
    }
  }
  return out;
}

/** name: lower-cased. */
function isImpersonationHeader(name: string): boolean {
  return name === impersonationHeaders.user || name === impersonationHeaders.group || name === impersonationHeaders.uid || name.startsWith(impersonationHeaders.extraPrefix);
}

/**
 * Upstream's buildImpersonationRequests: the user (or ServiceAccount), each group, one request per
 * extra value, then the uid. Groups, extras or a uid without a user is an error.
 */
function buildImpersonationRequests(h: ImpersonationHeaderValues): { requests: ImpersonationRequest[] } | { error: string } {
  const requests: ImpersonationRequest[] = [];
  const requestedUser = h.users[0] ?? '';
  if (requestedUser) {
    const sa = parseServiceAccountUsername(requestedUser);
    requests.push(sa ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name } : { kind: 'User', name: requestedUser });
  }
  for (const name of h.groups) requests.push({ kind: 'Group', name });
  for (const { key, values } of h.extras) {
    for (const value of values) requests.push({ kind: 'UserExtra', key: unescapeExtraKey(key), value });
  }
  const uid = h.uids[0] ?? '';
  if (uid) requests.push({ kind: 'UID', uid });
  if ((h.groups.length > 0 || h.extras.length > 0 || uid) && !requestedUser) {
    return { error: `requested [${requests.map(goObjectReference).join(' ')}] without impersonating a user` };
  }
  return { requests };
}

/** The attributes the requestor needs "impersonate" on for one part (upstream's actingAsAttributes). */
function actingAsAttributes(requestor: UserInfo, r: ImpersonationRequest): AuthorizationAttributes {
  const base = { user: requestor, verb: 'impersonate', isResourceRequest: true, path: '', apiVersion: 'v1', namespace: '', subresource: '' };
  switch (r.kind) {
    case 'User':
      return { ...base, apiGroup: '', resource: 'users', name: r.name };
    case 'ServiceAccount':
      return { ...base, apiGroup: '', resource: 'serviceaccounts', namespace: r.namespace, name: r.name };
    case 'Group':
      return { ...base, apiGroup: '', resource: 'groups', name: r.name };
    case 'UserExtra':
      return { ...base, apiGroup: apiGroups.authentication, resource: 'userextras', subresource: r.key, name: r.value };
    case 'UID':
      return { ...base, apiGroup: apiGroups.authentication, resource: 'uids', name: r.uid };
  }
}

/** Authorizes every part in order and builds the user the request then runs as. */
function authorizeImpersonation(requests: readonly ImpersonationRequest[], groupsSpecified: boolean, requestor: UserInfo, authorizer: Authorizer): UserInfo {
  let name = '';
  let groups: string[] = [];
  let uid = '';
  // Keys come from headers ("__proto__" included): a Map, then own properties.
  const extra = new Map<string, string[]>();
  for (const r of requests) {
    const attrs = actingAsAttributes(requestor, r);
    const decision = authorizer.authorize(attrs);
    if (decision.decision !== 'allow') throw forbiddenFor(attrs, decision.reason);
    switch (r.kind) {
      case 'ServiceAccount':
        name = serviceAccountUsername(r.namespace, r.name);
        // A ServiceAccount's groups are a fixed mapping; named groups replace them.
        if (!groupsSpecified) groups = serviceAccountGroups(r.namespace);
        break;
      case 'User':
        name = r.name;
        break;
      case 'Group':
        groups.push(r.name);
        break;
      case 'UserExtra': {
        const values = extra.get(r.key);
        if (values) values.push(r.value);
        else extra.set(r.key, [r.value]);
        break;
      }
      case 'UID':
        uid = r.uid;
        break;
    }
  }
  groups = withAuthenticationGroup(name, groups);
  const user: UserInfo = { name, groups };
  if (uid) user.uid = uid;
  if (extra.size) {
    const out: Record<string, string[]> = {};
    for (const [k, v] of extra) setOwn(out, k, v);
    user.extra = out;
  }
  return user;
}

/**
 * system:authenticated is added unless either it or system:unauthenticated is named; the anonymous
 * user gets system:unauthenticated instead (unless named).
 */
function withAuthenticationGroup(name: string, groups: string[]): string[] {
  if (name === userNames.anonymous) {
    return groups.includes(groupNames.unauthenticated) ? groups : [...groups, groupNames.unauthenticated];
  }
  if (groups.includes(groupNames.authenticated) || groups.includes(groupNames.unauthenticated)) return groups;
  return [...groups, groupNames.authenticated];
}

/** Later code never sees the impersonation headers (upstream deletes them from req.Header). */
function removeImpersonationHeaders(req: Pick<IncomingMessage, 'headers' | 'rawHeaders'>): void {
  for (const name of Object.keys(req.headers)) if (isImpersonationHeader(name)) delete req.headers[name];
  const raw = req.rawHeaders;
  let w = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (isImpersonationHeader(raw[i].toLowerCase())) continue;
    raw[w++] = raw[i];
    raw[w++] = raw[i + 1];
  }
  raw.length = w;
}

/** Upstream's unescapeExtraKey: %-escapes decoded (url.PathUnescape); a malformed escape keeps the key as it is. */
function unescapeExtraKey(encoded: string): string {
  if (!encoded.includes('%')) return encoded;
  const bytes: number[] = [];
  const src = Buffer.from(encoded, 'utf8');
  for (let i = 0; i < src.length; i++) {
    if (src[i] !== 0x25) {
      bytes.push(src[i]);
      continue;
    }
    const hi = hexValue(src[i + 1]);
    const lo = hexValue(src[i + 2]);
    if (hi < 0 || lo < 0) return encoded;
    bytes.push(hi * 16 + lo);
    i += 2;
  }
  // Go keeps the bytes; its JSON writes invalid UTF-8 as U+FFFD, as this decoding does.
  return Buffer.from(bytes).toString('utf8');
}

function hexValue(b: number | undefined): number {
  if (b === undefined) return -1;
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

/**
 * A request as Go's %v prints upstream's v1.ObjectReference value: its seven fields (Kind,
 * Namespace, Name, UID, APIVersion, ResourceVersion, FieldPath) space-separated in braces.
 */
function goObjectReference(r: ImpersonationRequest): string {
  const authenticationV1 = `${apiGroups.authentication}/v1`;
  const fields = ((): string[] => {
    switch (r.kind) {
      case 'User':
        return ['User', '', r.name, '', '', '', ''];
      case 'ServiceAccount':
        return ['ServiceAccount', r.namespace, r.name, '', '', '', ''];
      case 'Group':
        return ['Group', '', r.name, '', '', '', ''];
      case 'UserExtra':
        return ['UserExtra', '', r.value, '', authenticationV1, '', r.key];
      case 'UID':
        return ['UID', '', r.uid, '', authenticationV1, '', ''];
    }
  })();
  return `{${fields.join(' ')}}`;
}
