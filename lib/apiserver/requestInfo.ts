// Classifies a request from its method and path (upstream's RequestInfoFactory):
// resource requests under /api and /apis, everything else a non-resource URL.
import { goQueryBool } from '../machinery/goStrconv';

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** The API verb: get, list, watch, create, update, patch, delete, deletecollection, or the lowercase HTTP method for non-resource URLs. */
  verb: string;
  apiPrefix: 'api' | 'apis' | '';
  group: string;
  version: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments below the version that could not be classified (too many parts). */
  parts: string[];
}

const namespaceSubresources = new Set(['status', 'finalize']);
const specialVerbs = new Set(['proxy', 'watch']);

export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    group: '',
    version: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
  const segs = splitPath(path);
  if (segs.length === 0 || (segs[0] !== 'api' && segs[0] !== 'apis')) return info;
  let cur = segs.slice(1);
  if (segs[0] === 'api') {
    if (cur.length < 1) return info;
    info.version = cur[0];
    cur = cur.slice(1);
  } else {
    if (cur.length < 2) return info;
    info.group = cur[0];
    info.version = cur[1];
    cur = cur.slice(2);
  }
  info.apiPrefix = segs[0] as 'api' | 'apis';
  if (cur.length === 0) return info;
  info.isResourceRequest = true;

  let legacyWatch = false;
  if (specialVerbs.has(cur[0])) {
    if (cur.length < 2) {
      info.isResourceRequest = false;
      return info;
    }
    legacyWatch = cur[0] === 'watch';
    cur = cur.slice(1);
  }

  if (cur[0] === 'namespaces') {
    if (cur.length > 1) {
      info.namespace = cur[1];
      if (cur.length > 2 && !namespaceSubresources.has(cur[2])) cur = cur.slice(2);
    }
  }

  info.resource = cur[0] ?? '';
  if (cur.length >= 2) info.name = cur[1];
  if (cur.length >= 3) info.subresource = cur[2];
  if (cur.length > 3) info.parts = cur.slice(3);

  const m = method.toUpperCase();
  // Query booleans as upstream converts them: present and not "0"/"false" means true, so the
  // verb agrees with the list options the handler decodes ("watch=" and "watch=maybe" watch).
  const watchParam = query.get('watch');
  const isWatch = legacyWatch || (watchParam !== null && goQueryBool(watchParam));
  if (m === 'GET' || m === 'HEAD') {
    if (isWatch) info.verb = 'watch';
    else info.verb = info.name ? 'get' : 'list';
  } else if (m === 'POST') info.verb = 'create';
  else if (m === 'PUT') info.verb = 'update';
  else if (m === 'PATCH') info.verb = 'patch';
  else if (m === 'DELETE') info.verb = info.name ? 'delete' : 'deletecollection';
  else info.verb = m.toLowerCase();
  return info;
}

/** Segments without leading, trailing or empty ones (a lone "" for "/"), percent-decoded. */
function splitPath(path: string): string[] {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === 47) start++;
  while (end > start && path.charCodeAt(end - 1) === 47) end--;
  const raw = path.slice(start, end).split('/');
  if (raw.length === 1) return [decodeSegment(raw[0])];
  const segs: string[] = [];
  for (const seg of raw) if (seg !== '') segs.push(decodeSegment(seg));
  return segs;
}

/** Path segments are percent-decoded as upstream's router does; a bad escape stays as sent. */
function decodeSegment(seg: string): string {
  if (!seg.includes('%')) return seg;
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}
