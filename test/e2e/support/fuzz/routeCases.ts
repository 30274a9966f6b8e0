// Paths and query strings: every verb on every route shape, traversal and encoding tricks,
// overlong, uppercase and unicode names, unknown groups/versions/resources/subresources, and
// bad values for every list, watch, write and delete option.
import { DeleteOptionsSchema } from '../../../../lib/api';
import type { FuzzCase } from './fuzzCase';
import { rawRequest } from './fuzzCase';
import { jsonWithRaw, rawSlot } from './jsonText';
import type { Prng } from './prng';
import { pathString, schemaFields, setAtPath } from './schemaFields';
import { FuzzTarget, gvPrefix, victimSelector } from './targets';
import { wrongLiterals } from './wrongValues';

export const httpMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'PURGE'];

const json = { 'Content-Type': 'application/json' };

/** Collection-wide DELETEs are confined to victims (a selector that cannot widen it). */
function confine(path: string, method: string): string {
  if (method !== 'DELETE') return path;
  return `${path}${path.includes('?') ? '&' : '?'}labelSelector=${encodeURIComponent(victimSelector)}`;
}

interface Shape {
  what: string;
  path: string;
  /** A valid body for writes at this shape (a victim or a new object). */
  body?: () => Buffer;
  collection: boolean;
  readOnly?: boolean;
}

function shapes(rng: Prng, t: FuzzTarget): Shape[] {
  const base = gvPrefix(t.info);
  const victim = rng.pick(t.victims);
  const newBody = (): Buffer => Buffer.from(JSON.stringify(t.template(`fz-${rng.token(10)}`, 'new')));
  const victimBody = (): Buffer => Buffer.from(JSON.stringify(t.template(victim, 'victim')));
  const out: Shape[] = [
    { what: 'collection', path: t.collection, body: newBody, collection: true },
    { what: 'item', path: t.item(victim), body: victimBody, collection: false },
    { what: 'missing item', path: t.item(`fz-missing-${rng.token(6)}`), body: newBody, collection: false },
    { what: 'item trailing slash', path: `${t.item(victim)}/`, body: victimBody, collection: false },
    { what: 'unknown subresource', path: `${t.item(victim)}/nope`, body: victimBody, collection: false },
    { what: 'too deep', path: `${t.item(victim)}/status/extra/parts`, body: victimBody, collection: false },
    { what: 'legacy watch collection', path: `${base}/watch${t.collection.slice(base.length)}`, collection: true },
    { what: 'legacy watch item', path: `${base}/watch${t.item(victim).slice(base.length)}`, collection: false },
    { what: 'legacy proxy', path: `${base}/proxy${t.item(victim).slice(base.length)}`, collection: false },
  ];
  for (const sub of t.info.subresources) out.push({ what: `subresource ${sub.name}`, path: `${t.item(victim)}/${sub.name}`, body: victimBody, collection: false });
  if (t.allNamespaces) {
    out.push({ what: 'all namespaces', path: t.allNamespaces, body: newBody, collection: true });
    out.push({ what: 'all namespaces item', path: `${t.allNamespaces}/${victim}`, body: victimBody, collection: false });
    // The namespace object itself: only read here (its writes belong to the Namespace kind's victims).
    out.push({ what: 'namespace without resource', path: `${base}/namespaces/${t.namespace}`, collection: false, readOnly: true });
  } else {
    out.push({ what: 'cluster kind under a namespace', path: `${base}/namespaces/${t.namespace}/${t.info.resource}`, body: newBody, collection: true });
  }
  return out;
}

export function verbShapeCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const t of targets) {
    for (const shape of shapes(rng, t)) {
      for (const method of httpMethods) {
        if (shape.readOnly && !['GET', 'HEAD', 'OPTIONS'].includes(method)) continue;
        const hasBody = ['POST', 'PUT', 'PATCH'].includes(method);
        const isPatch = method === 'PATCH';
        const body = isPatch ? Buffer.from('{"metadata":{"annotations":{"fuzz":"patched"}}}') : hasBody ? shape.body?.() ?? Buffer.from('{}') : undefined;
        out.push({
          name: `route/${shape.what} ${method}`,
          method,
          path: confine(shape.path, shape.collection ? method : ''),
          headers: body ? { 'Content-Type': isPatch ? 'application/merge-patch+json' : 'application/json' } : undefined,
          body,
        });
      }
    }
  }
  // Methods no client library sends: Node's parser answers these itself.
  const t = rng.pick(targets);
  for (const method of ['FOO', 'get', 'G\u00c9T', 'CONNECT']) {
    const p = method === 'CONNECT' ? '127.0.0.1:443' : t.collection;
    // Node closes CONNECT requests unanswered when the server has no 'connect' listener.
    out.push({ name: `route/method ${method}`, method, path: p, raw: { bytes: rawRequest(method, p, [['Host', 'fuzz'], ['Connection', 'close']]) }, protocolLevel: true, mayClose: method === 'CONNECT' || undefined });
  }
  return out;
}

/** Traversal and encoding tricks around real routes. */
export function pathTrickCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const t of targets) {
    const c = t.collection;
    const victim = rng.pick(t.victims);
    const tricks = [
      `${c}/..`,
      `${c}/../..`,
      `${c}/../../../../../etc/passwd`,
      `${c}/%2e%2e`,
      `${c}/%2E%2E/${victim}`,
      `${c}/.`,
      `${c}/%2e`,
      `${c}/${victim}/..%2f..%2f`,
      `${c}/${victim}/%2e%2e/${victim}`,
      `${c}/a%2Fb`,
      `${c}/${victim}%2Fstatus`,
      `${c}//${victim}`,
      `/${c}`,
      `${c.replace('/v1/', '//v1/')}`,
      `${c}/${victim}//status`,
      `${c}%00`,
      `${c}/%00`,
      `${c}/%`,
      `${c}/%zz`,
      `${c}/%u0041`,
      `${c}/a\\b`,
      `${c};x=1`,
      `${c}/${victim};x=1`,
      `${c}/./${victim}`,
      c.replace(/^\/api(s?)\//, '/./api$1/'),
      c.replace(/^\/api(s?)\//, '/api$1/./'),
      c.toUpperCase(),
      c.replace(/^\/api/, '/API'),
      `${c}/*`,
      `${c}/${victim}/*`,
      `${c}?`,
      `${c}#frag`,
      `${c}/${'%2e%2e/'.repeat(20)}`,
      `${c}/%c0%ae%c0%ae`,
      `${c}/${victim}%20`,
    ];
    for (const p of tricks) {
      const method = rng.pick(['GET', 'GET', 'DELETE', 'PUT', 'PATCH']);
      // Mutations through tricks go to victims; the name in the body follows the URL's last segment.
      const body = method === 'PUT' ? Buffer.from(JSON.stringify(t.template(victim, 'victim'))) : method === 'PATCH' ? Buffer.from('{"metadata":{"annotations":{"fuzz":"trick"}}}') : undefined;
      const safeDelete = method === 'DELETE' && !p.includes(victim) ? 'GET' : method;
      out.push({
        name: `path/trick ${safeDelete}`,
        method: safeDelete,
        path: confine(p, safeDelete),
        headers: body ? { 'Content-Type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' } : undefined,
        body: safeDelete === method ? body : undefined,
      });
    }
    // Raw bytes the client would escape or refuse: spaces, UTF-8, control characters.
    for (const p of [`${c}/a b`, `${c}/${Buffer.from('名前', 'utf8').toString('latin1')}`, `${c}/\u0001`, `${c}/\u007f`, `${c}\t`, `http://fuzz${c}`, '*', `${c}/${'x'.repeat(15_000)}`, `${c}/${'x'.repeat(20_000)}`]) {
      out.push({ name: 'path/raw', method: 'GET', path: p, raw: { bytes: rawRequest('GET', p, [['Host', 'fuzz'], ['Connection', 'close']]) }, protocolLevel: true });
    }
  }
  return out;
}

/** Names that are too long, uppercase, unicode, or contain '/', in URLs and bodies; labels 64+. */
/** Names no kind accepts (not usable as a path segment, or missing); others depend on the kind (CSR names are free-form). */
const unusableNames = new Set(['a/b', 'a%b', '.', '..', '']);

export function nameCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const names = [
    'a'.repeat(63),
    'a'.repeat(64),
    'a'.repeat(253),
    'a'.repeat(254),
    'a'.repeat(1000),
    `${'a'.repeat(63)}.${'b'.repeat(64)}`,
    'UPPER',
    'Mixed-Case',
    'ñame',
    '名前',
    '\u{1f600}',
    'a\u200bb',
    'a/b',
    'a%b',
    '.',
    '..',
    '-leading',
    'trailing-',
    'a..b',
    'a_b',
    'a:b',
    'a b',
    '@',
    '~',
    '',
  ];
  const out: FuzzCase[] = [];
  for (const t of targets) {
    for (const n of names) {
      const enc = encodeURIComponent(n);
      const item = `${t.collection}/${enc}`;
      out.push({ name: `name/url GET ${JSON.stringify(n.slice(0, 20))}`, method: 'GET', path: item });
      if (n) out.push({ name: `name/url DELETE`, method: 'DELETE', path: item });
      out.push({ name: `name/url PUT`, method: 'PUT', path: item, headers: json, body: Buffer.from(JSON.stringify(t.template(n, 'new'))) });
      out.push({ name: `name/body POST ${JSON.stringify(n.slice(0, 20))}`, method: 'POST', path: t.collection, headers: json, body: Buffer.from(JSON.stringify(t.template(n, 'new'))), mustFail: unusableNames.has(n) || undefined });
      if (rng.chance(0.3)) out.push({ name: 'name/generateName', method: 'POST', path: t.collection, headers: json, body: Buffer.from(JSON.stringify({ ...t.template('', 'new'), metadata: { generateName: n } })) });
    }
    if (t.info.namespaced) {
      for (const ns of ['UPPER', 'a'.repeat(64), '..', '%2e%2e', 'a%2Fb', 'fz%00', '名前']) {
        out.push({ name: 'name/namespace in URL', method: rng.pick(['GET', 'POST']), path: `${gvPrefix(t.info)}/namespaces/${encodeURI(ns)}/${t.info.resource}`, headers: json, body: Buffer.from(JSON.stringify(t.template(`fz-${rng.token(8)}`, 'new'))) });
      }
    }
    // Labels and annotations: 63/64 name parts, 253/254 prefixes, bad characters.
    const labelKeys = ['a'.repeat(63), 'a'.repeat(64), `${'p'.repeat(253)}/k`, `${'p'.repeat(254)}/k`, 'UPPER/k', '/k', 'a/', 'a/b/c', '-a', 'a b', ''];
    const labelValues = ['v'.repeat(63), 'v'.repeat(64), '-v', 'v-', 'a b', 'ñ', '\u0000'];
    for (const k of labelKeys) {
      const obj = t.template(`fz-${rng.token(8)}`, 'new');
      (obj.metadata as { labels: Record<string, string> }).labels[k] = 'v';
      out.push({ name: `name/label key ${k.length}`, method: 'POST', path: t.collection, headers: json, body: Buffer.from(JSON.stringify(obj)) });
      out.push({ name: `name/selector key ${k.length}`, method: 'GET', path: `${t.collection}?labelSelector=${encodeURIComponent(`${k}=v`)}` });
    }
    for (const v of labelValues) {
      const obj = t.template(`fz-${rng.token(8)}`, 'new');
      (obj.metadata as { labels: Record<string, string> }).labels.k = v;
      out.push({ name: `name/label value ${v.length}`, method: 'POST', path: t.collection, headers: json, body: Buffer.from(JSON.stringify(obj)) });
      out.push({ name: `name/selector value ${v.length}`, method: 'GET', path: `${t.collection}?labelSelector=${encodeURIComponent(`k=${v}`)}` });
    }
  }
  return out;
}

/** Groups, versions, resources and subresources that do not exist. */
export function unknownRouteCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const t = rng.pick(targets);
  const nsT = targets.find((x) => x.info.namespaced) ?? t;
  const paths = [
    '/apis/nope.svc.io/v1/things',
    '/apis/nope.svc.io/v1/namespaces/fz/things/x',
    `/apis/${t.info.group || 'certificates.svc.io'}/v9/${t.info.resource}`,
    `/apis/${t.info.group || 'certificates.svc.io'}/v1beta1/${t.info.resource}`,
    '/api/v2/namespaces',
    '/api/v1/nopes',
    '/api/v1/namespaces/fz/nopes/x/y',
    `${gvPrefix(t.info)}/NOPES`,
    `${nsT.collection}/x/y/z/w`,
    `${t.item(t.sentinel)}/nope`,
    `${t.item(t.sentinel)}/status/nope`,
    '/apis',
    '/apis/',
    '/apis/x',
    '/apis/x/y/z',
    '/api',
    '/api/',
    '/api/v1',
    '/api/v1/',
    '/apis/certificates.svc.io',
    '/apis/meta.svc.io/v1/tables',
    '/apis/apidiscovery.svc.io/v2/apigroupdiscoverys',
    '/api/v1/watch',
    '/api/v1/watch/',
    '/api/v1/proxy/namespaces/fz/pods/x',
    '/api/v1/namespaces/fz/pods/x/exec',
    '/apis/rbac.authorization.svc.io/v1/clusterroles',
    '/apis/authentication.svc.io/v1/tokenreviews',
    '/version/extra',
    '/healthz/nope',
    '/readyz/etcd/extra',
    '/livez/..',
    '/openapi/v3/nope',
    '/openapi/v3/apis/nope/v1',
    '/openapi/v2/x',
    '/metrics/x',
    '/nope',
    '/',
  ];
  const out: FuzzCase[] = [];
  for (const p of paths) {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
      if (method !== 'GET' && rng.chance(0.4)) continue;
      const body = ['POST', 'PUT', 'PATCH'].includes(method) ? Buffer.from('{"metadata":{"name":"x"}}') : undefined;
      // Some of these may be served by now (kinds get added): a DELETE stays confined to victims.
      out.push({ name: `route/unknown ${method}`, method, path: confine(p, method), headers: body ? json : undefined, body });
    }
  }
  return out;
}

export const badListQueries = [
  'limit=-1',
  'limit=abc',
  'limit=1.5',
  'limit=99999999999999999999',
  'limit=0x10',
  'limit=',
  'limit=1&limit=abc',
  'continue=%%%',
  'continue=abc',
  'continue=eyJ2IjoibWV0YS5zdmMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJ4In0',
  `continue=${Buffer.from('{"v":"meta.svc.io/v1","rv":-1,"start":"../../x"}').toString('base64url')}`,
  `continue=${Buffer.from('{"v":"nope","rv":1,"start":"x"}').toString('base64')}`,
  'continue=x&resourceVersion=5',
  'resourceVersion=abc',
  'resourceVersion=-5',
  'resourceVersion=1.5',
  'resourceVersion=0x10',
  'resourceVersion=%00',
  'resourceVersionMatch=Exact',
  'resourceVersionMatch=Bogus&resourceVersion=0',
  'resourceVersionMatch=NotOlderThan',
  'resourceVersionMatch=Exact&resourceVersion=abc',
  'timeoutSeconds=-5',
  'timeoutSeconds=abc',
  'timeoutSeconds=1e400',
  'timeout=abc',
  'timeout=-1s',
  'timeout=99999999999h',
  'watch=maybe',
  'watch=',
  'watch=true&resourceVersion=abc',
  'watch=true&resourceVersionMatch=Exact&resourceVersion=0',
  'watch=1&allowWatchBookmarks=maybe&timeoutSeconds=1',
  'watch=true&sendInitialEvents=maybe',
  'watch=true&sendInitialEvents=true',
  'watch=true&timeoutSeconds=-5',
  'watch=true&limit=-1&timeoutSeconds=1',
  'sendInitialEvents=true',
  'allowWatchBookmarks=true',
  'labelSelector=a%20in%20(',
  'labelSelector=!!',
  'labelSelector=%3D%3D%3D',
  'labelSelector=a%3D%3D%3Db',
  'labelSelector=a%20notin%20',
  'labelSelector=%00',
  `labelSelector=${'a,'.repeat(3000)}a`,
  'labelSelector=a%3Db%2C',
  'labelSelector=a%20in%20(b%2C%2C)',
  'labelSelector=a>b',
  'labelSelector=a>abc',
  'fieldSelector=metadata.name',
  'fieldSelector=spec.x%3Dy',
  'fieldSelector=metadata.name%3D%3D%3Dx',
  'fieldSelector=metadata.name!%3D',
  'fieldSelector=%3D',
  'fieldSelector=metadata.namespace%3Dfz%2Cmetadata.namespace%3Dother',
  'fieldSelector=metadata.name%20in%20(a)',
  'fieldSelector=%5Cx',
  'pretty=maybe',
  'pretty=1&pretty=0',
  'includeUninitialized=true',
  '%',
  'a=%zz',
  '=x',
  '&&&',
  'limit',
  ';limit=1',
];

export const badWriteQueries = [
  'dryRun=bogus',
  'dryRun=All&dryRun=bogus',
  'dryRun=',
  'dryRun=all',
  'fieldValidation=bogus',
  'fieldValidation=strict',
  'fieldValidation=',
  `fieldManager=${'m'.repeat(200)}`,
  'fieldManager=%00',
  'fieldManager=a%0Ab',
  'force=true',
  'force=maybe',
  'resourceVersion=abc',
];

/** Values upstream reads leniently (any bool text but 0/f/false is true; -1 is a valid grace period) do not refuse a delete. */
function refusesDelete(q: string): boolean {
  return !q.startsWith('gracePeriodSeconds=-1') && !q.startsWith('orphanDependents=maybe') && q !== 'propagationPolicy=';
}

export const badDeleteQueries = [
  'gracePeriodSeconds=abc',
  'gracePeriodSeconds=-1',
  'gracePeriodSeconds=99999999999999999999',
  'gracePeriodSeconds=1.5',
  'propagationPolicy=Bogus',
  'propagationPolicy=',
  'orphanDependents=maybe',
  'orphanDependents=true&propagationPolicy=Foreground',
  'dryRun=bogus',
  'dryRun=All&dryRun=x',
];

/** Each bad value against a few fitting routes; writes only ever reach victims or new objects. */
export function queryCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const q of badListQueries) {
    for (const t of rng.sample(targets, 2)) {
      const withSelector = q.startsWith('labelSelector=') ? `labelSelector=${encodeURIComponent(`${victimSelector},`)}${q.slice('labelSelector='.length)}` : `${q}&labelSelector=${encodeURIComponent(victimSelector)}`;
      const routes: [string, string][] = [
        ['GET', `${t.collection}?${q}`],
        ['GET', `${t.item(t.sentinel)}?${q}`],
        [rng.pick(['GET', 'HEAD']), `${t.allNamespaces ?? t.collection}?${q}`],
      ];
      // deletecollection with the same values, confined to victims.
      if (t.info.verbs.includes('deletecollection') && rng.chance(0.3)) routes.push(['DELETE', `${t.collection}?${withSelector}`]);
      for (const [method, path] of routes) out.push({ name: `query/list ${q.slice(0, 40)}`, method, path });
    }
  }
  for (const q of badWriteQueries) {
    for (const t of rng.sample(targets, 2)) {
      const victim = rng.pick(t.victims);
      out.push({ name: `query/create ${q.slice(0, 40)}`, method: 'POST', path: `${t.collection}?${q}`, headers: json, body: Buffer.from(JSON.stringify(t.template(`fz-${rng.token(10)}`, 'new'))) });
      out.push({ name: `query/update ${q.slice(0, 40)}`, method: 'PUT', path: `${t.item(victim)}?${q}`, headers: json, body: Buffer.from(JSON.stringify(t.template(victim, 'victim'))) });
      out.push({ name: `query/patch ${q.slice(0, 40)}`, method: 'PATCH', path: `${t.item(victim)}?${q}`, headers: { 'Content-Type': 'application/merge-patch+json' }, body: Buffer.from('{"metadata":{"annotations":{"q":"1"}}}') });
    }
  }
  for (const q of badDeleteQueries) {
    for (const t of rng.sample(targets, 2)) {
      out.push({ name: `query/delete ${q}`, method: 'DELETE', path: `${t.item(rng.pick(t.victims))}?${q}` });
      // A bad option must refuse the delete: aimed at the sentinel.
      if (refusesDelete(q)) out.push({ name: `query/delete sentinel ${q}`, method: 'DELETE', path: `${t.item(t.sentinel)}?${q}`, mustFail: true });
      if (t.info.verbs.includes('deletecollection')) out.push({ name: `query/deletecollection ${q}`, method: 'DELETE', path: `${t.collection}?${q}&labelSelector=${encodeURIComponent(victimSelector)}` });
    }
  }
  return out;
}

/** DeleteOptions bodies: garbage, and wrong types in every DeleteOptions field (the sentinel must survive). */
export function deleteBodyCases(rng: Prng, targets: readonly FuzzTarget[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const { path, field } of schemaFields(DeleteOptionsSchema)) {
    const lits = wrongLiterals(field);
    if (!lits.length) continue;
    const t = rng.pick(targets);
    const obj: Record<string, unknown> = { apiVersion: 'meta.svc.io/v1', kind: 'DeleteOptions' };
    setAtPath(obj, path, rawSlot);
    const lit = rng.pick(lits);
    out.push({ name: `delete-body/wrong-type ${pathString(path)}=${lit}`, method: 'DELETE', path: t.item(t.sentinel), headers: json, body: Buffer.from(jsonWithRaw(obj, lit)), mustFail: true });
  }
  for (const t of targets) {
    const bodies: [string, string, string, boolean][] = [
      ['truncated', '{"kind":"DeleteOptions","apiVersion":"meta.svc.io/v1","preconditions":{', 'application/json', true],
      ['wrong uid precondition', '{"preconditions":{"uid":"00000000-0000-0000-0000-000000000000"}}', 'application/json', true],
      ['wrong rv precondition', '{"preconditions":{"resourceVersion":"1"}}', 'application/json', true],
      ['garbage rv precondition', '{"preconditions":{"resourceVersion":"abc"}}', 'application/json', true],
      ['bad policy', '{"propagationPolicy":"Bogus"}', 'application/json', true],
      ['bad dryRun', '{"dryRun":["bogus"]}', 'application/json', true],
      ['orphan and policy', '{"orphanDependents":true,"propagationPolicy":"Orphan"}', 'application/json', true],
      ['yaml garbage', 'preconditions: [unclosed', 'application/yaml', true],
      ['array', '[]', 'application/json', true],
      ['protobuf garbage', 'k8s\u0000\u00ff\u00ff', 'application/vnd.svc.protobuf', false],
      ['text', 'please delete', 'text/plain', false],
    ];
    for (const [what, body, ct, toSentinel] of bodies) {
      out.push({ name: `delete-body/${what}`, method: 'DELETE', path: toSentinel ? t.item(t.sentinel) : t.item(rng.pick(t.victims)), headers: { 'Content-Type': ct }, body: Buffer.from(body, 'latin1'), mustFail: toSentinel || undefined });
    }
  }
  return out;
}
