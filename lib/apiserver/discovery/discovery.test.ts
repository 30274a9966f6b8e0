import { createHash } from 'node:crypto';
import { certificatesigningrequests, groups, namespaces, NamespaceSchema, serviceaccounts, serverVersion, type ResourceInfo } from '../../api';
import { aggregatedDiscovery } from './aggregated';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from './legacy';
import { aggregatedDiscoveryMediaType, aggregatedResponse, negotiateDiscovery, renderAggregated } from './negotiate';
import { createDiscovery } from './routes';
import { storageVersionHash } from './storageVersionHash';
import { compareVersionPriority } from '../../machinery/versionPriority';
import { defaultPlatform, versionInfo } from './version';

// The served set as the server will register it: the token subresource lives on serviceaccounts
// with a kind from another group.
const sa: ResourceInfo = {
  ...serviceaccounts,
  subresources: [{ name: 'token', verbs: ['create'], kind: { group: groups.authentication, version: 'v1', kind: 'TokenRequest' } }],
};
const tokenreviews: ResourceInfo = {
  group: groups.authentication,
  version: 'v1',
  kind: 'TokenReview',
  listKind: 'TokenReviewList',
  resource: 'tokenreviews',
  singular: 'tokenreview',
  shortNames: [],
  namespaced: false,
  verbs: ['create'],
  schema: NamespaceSchema, // discovery never reads the schema
  subresources: [],
};
const served: ResourceInfo[] = [sa, namespaces, certificatesigningrequests, tokenreviews];
const compact = (s: string): string => JSON.stringify(JSON.parse(s));

describe('storageVersionHash (doc test vectors)', () => {
  test.each([
    ['certificates.svc.io', 'v1', 'CertificateSigningRequest', 'lC5pQBQpEP0='],
    ['', 'v1', 'Namespace', 'Q3oi5N2YM8M='],
    ['', 'v1', 'ServiceAccount', 'pbx9ZvyFpBE='],
  ])('%s/%s/%s → %s', (g, v, k, want) => {
    expect(storageVersionHash(g, v, k)).toBe(want);
  });
});

describe('plain discovery documents', () => {
  test('GET /api', () => {
    expect(JSON.stringify(apiVersions(served, '10.0.0.5:6443'))).toBe(
      '{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"10.0.0.5:6443"}]}',
    );
  });

  test('GET /apis lists groups in registration order, core excluded', () => {
    const reordered = [sa, certificatesigningrequests, tokenreviews, namespaces];
    expect(JSON.stringify(apiGroupList(reordered))).toBe(
      compact(`{"kind":"APIGroupList","apiVersion":"v1","groups":[
  {"name":"certificates.svc.io",
   "versions":[{"groupVersion":"certificates.svc.io/v1","version":"v1"}],
   "preferredVersion":{"groupVersion":"certificates.svc.io/v1","version":"v1"}},
  {"name":"authentication.svc.io","versions":[{"groupVersion":"authentication.svc.io/v1","version":"v1"}],
   "preferredVersion":{"groupVersion":"authentication.svc.io/v1","version":"v1"}}]}`),
    );
  });

  test('GET /apis/certificates.svc.io', () => {
    expect(JSON.stringify(apiGroup(served, 'certificates.svc.io'))).toBe(
      compact(`{"kind":"APIGroup","apiVersion":"v1","name":"certificates.svc.io",
 "versions":[{"groupVersion":"certificates.svc.io/v1","version":"v1"}],
 "preferredVersion":{"groupVersion":"certificates.svc.io/v1","version":"v1"}}`),
    );
    expect(apiGroup(served, 'nope.svc.io')).toBeNull();
    expect(apiGroup(served, '')).toBeNull();
  });

  test('GET /apis/certificates.svc.io/v1 (exact doc example)', () => {
    expect(JSON.stringify(apiResourceList(served, 'certificates.svc.io', 'v1'))).toBe(
      compact(`{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"certificates.svc.io/v1",
 "resources":[
  {"name":"certificatesigningrequests","singularName":"certificatesigningrequest","namespaced":false,
   "kind":"CertificateSigningRequest",
   "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
   "shortNames":["csr"],"storageVersionHash":"lC5pQBQpEP0="},
  {"name":"certificatesigningrequests/approval","singularName":"","namespaced":false,
   "kind":"CertificateSigningRequest","verbs":["get","patch","update"]},
  {"name":"certificatesigningrequests/status","singularName":"","namespaced":false,
   "kind":"CertificateSigningRequest","verbs":["get","patch","update"]}]}`),
    );
  });

  test('GET /api/v1 (doc table): no apiVersion key, sorted by name, token subresource names its group', () => {
    const list = apiResourceList(served, '', 'v1');
    expect(Object.keys(list ?? {})).toEqual(['kind', 'groupVersion', 'resources']);
    expect(list?.resources).toEqual([
      { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ns'], storageVersionHash: 'Q3oi5N2YM8M=' },
      { name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['update'] },
      { name: 'namespaces/status', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['get', 'patch', 'update'] },
      { name: 'serviceaccounts', singularName: 'serviceaccount', namespaced: true, kind: 'ServiceAccount', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['sa'], storageVersionHash: 'pbx9ZvyFpBE=' },
      { name: 'serviceaccounts/token', singularName: '', namespaced: true, group: 'authentication.svc.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] },
    ]);
    // JSON key order of an entry with group/version
    expect(JSON.stringify(list?.resources[4])).toBe(
      '{"name":"serviceaccounts/token","singularName":"","namespaced":true,"group":"authentication.svc.io","version":"v1","kind":"TokenRequest","verbs":["create"]}',
    );
  });

  test.each<[string, ResourceInfo, string]>([
    ['verbs sorted, shortNames omitted when empty', { ...tokenreviews, verbs: ['list', 'create', 'get'] }, '{"name":"tokenreviews","singularName":"tokenreview","namespaced":false,"kind":"TokenReview","verbs":["create","get","list"],"storageVersionHash":"' + storageVersionHash('authentication.svc.io', 'v1', 'TokenReview') + '"}'],
    ['subresource of the same group-version carries no group/version', { ...tokenreviews, subresources: [{ name: 'x', verbs: ['get'], kind: { group: 'authentication.svc.io', version: 'v1', kind: 'Other' } }] }, '{"name":"tokenreviews/x","singularName":"","namespaced":false,"kind":"Other","verbs":["get"]}'],
    ['subresource in another version of the same group carries both', { ...tokenreviews, subresources: [{ name: 'x', verbs: ['get'], kind: { group: 'authentication.svc.io', version: 'v2', kind: 'Other' } }] }, '{"name":"tokenreviews/x","singularName":"","namespaced":false,"group":"authentication.svc.io","version":"v2","kind":"Other","verbs":["get"]}'],
  ])('%s', (_n, r, want) => {
    const list = apiResourceList([r], r.group, r.version);
    expect(JSON.stringify(list?.resources[list.resources.length - 1])).toBe(want);
  });

  test('unknown group-version → null', () => {
    expect(apiResourceList(served, '', 'v2')).toBeNull();
    expect(apiResourceList(served, 'certificates.svc.io', 'v1beta1')).toBeNull();
  });

  test('versions in preference order; first is preferred', () => {
    const multi = ['v1alpha1', 'v1', 'v2beta1', 'v1beta2', 'v2', 'v1beta1', 'foo'].map((version) => ({ ...tokenreviews, version }));
    expect(apiGroup(multi, 'authentication.svc.io')?.versions.map((v) => v.version)).toEqual(['v2', 'v1', 'v2beta1', 'v1beta2', 'v1beta1', 'v1alpha1', 'foo']);
    expect(apiGroup(multi, 'authentication.svc.io')?.preferredVersion.version).toBe('v2');
  });
});

describe('compareVersionPriority', () => {
  test.each([
    ['v1', 'v1beta1', -1],
    ['v1beta1', 'v1alpha2', -1],
    ['v2', 'v10', 1],
    ['v1beta2', 'v1beta10', 1],
    ['v1alpha1', 'abc', -1],
    ['abc', 'abd', -1],
    ['v1', 'v1', 0],
  ])('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareVersionPriority(a, b))).toBe(sign);
  });
});

describe('aggregated discovery', () => {
  test('/apis document matches the doc example', () => {
    expect(JSON.stringify(aggregatedDiscovery([certificatesigningrequests], 'apis'))).toBe(
      compact(`{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.svc.io/v2","metadata":{},
 "items":[{"metadata":{"name":"certificates.svc.io"},
   "versions":[{"version":"v1","freshness":"Current","resources":[
     {"resource":"certificatesigningrequests",
      "responseKind":{"group":"certificates.svc.io","version":"v1","kind":"CertificateSigningRequest"},
      "scope":"Cluster","singularResource":"certificatesigningrequest",
      "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
      "shortNames":["csr"],
      "subresources":[
        {"subresource":"approval","responseKind":{"group":"certificates.svc.io","version":"v1","kind":"CertificateSigningRequest"},"verbs":["get","patch","update"]},
        {"subresource":"status","responseKind":{"group":"certificates.svc.io","version":"v1","kind":"CertificateSigningRequest"},"verbs":["get","patch","update"]}]}]}]}]}`),
    );
  });

  test('/api document: one item with empty metadata, resources sorted, token responseKind', () => {
    const doc = aggregatedDiscovery(served, 'core');
    expect(doc.items).toHaveLength(1);
    expect(doc.items[0].metadata).toEqual({});
    const v1 = doc.items[0].versions[0];
    expect(v1.version).toBe('v1');
    expect(v1.resources.map((r) => r.resource)).toEqual(['namespaces', 'serviceaccounts']);
    expect(v1.resources[1]).toEqual({
      resource: 'serviceaccounts',
      responseKind: { group: '', version: 'v1', kind: 'ServiceAccount' },
      scope: 'Namespaced',
      singularResource: 'serviceaccount',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['sa'],
      subresources: [{ subresource: 'token', responseKind: { group: 'authentication.svc.io', version: 'v1', kind: 'TokenRequest' }, verbs: ['create'] }],
    });
    expect(aggregatedDiscovery(served, 'apis').items.map((i) => i.metadata.name)).toEqual(['certificates.svc.io', 'authentication.svc.io']);
    const tr = aggregatedDiscovery(served, 'apis').items[1].versions[0].resources[0];
    expect(Object.keys(tr)).toEqual(['resource', 'responseKind', 'scope', 'singularResource', 'verbs']);
  });
});

describe('negotiateDiscovery', () => {
  const ours = 'application/json;g=apidiscovery.svc.io;v=v2;as=APIGroupDiscoveryList';
  test.each<[string, string | undefined, 'aggregated' | 'plain']>([
    ['stock kubectl (upstream group) falls back to plain', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json', 'plain'],
    ['our v2 first', `${ours},application/json;g=apidiscovery.svc.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`, 'aggregated'],
    ['our v2 alone', ours, 'aggregated'],
    ['parameter order and spaces do not matter', 'application/json; as=APIGroupDiscoveryList; v=v2; g=apidiscovery.svc.io', 'aggregated'],
    ['v2beta1 only is not served', 'application/json;g=apidiscovery.svc.io;v=v2beta1;as=APIGroupDiscoveryList,application/json', 'plain'],
    ['plain listed first wins', `application/json,${ours}`, 'plain'],
    ['q values reorder', `application/json;q=0.5,${ours}`, 'aggregated'],
    ['q=0 is refused', `${ours};q=0,application/json`, 'plain'],
    ['protobuf aggregated is skipped', `application/vnd.svc.protobuf;g=apidiscovery.svc.io;v=v2;as=APIGroupDiscoveryList,${ours}`, 'aggregated'],
    ['no Accept', undefined, 'plain'],
    ['*/*', '*/*', 'plain'],
  ])('%s', (_n, accept, want) => {
    expect(negotiateDiscovery(accept)).toBe(want);
  });
});

describe('aggregatedResponse', () => {
  const doc = renderAggregated(aggregatedDiscovery(served, 'apis'));
  const etag = `"${createHash('sha512').update(doc.json).digest('hex').toUpperCase()}"`;

  test('200 with media type, ETag, Vary, Cache-Control', () => {
    expect(aggregatedResponse(doc, undefined)).toEqual({
      status: 200,
      headers: { 'Content-Type': aggregatedDiscoveryMediaType, ETag: etag, Vary: 'Accept', 'Cache-Control': 'public' },
      body: doc.json,
    });
    expect(aggregatedDiscoveryMediaType).toBe('application/json;g=apidiscovery.svc.io;v=v2;as=APIGroupDiscoveryList');
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
  });

  test.each<[string | undefined, number]>([
    [undefined, 200],
    ['"nope"', 200],
    ['unquoted', 200],
    ['__ETAG__', 304],
  ])('If-None-Match %s → %d', (inm, status) => {
    const r = aggregatedResponse(doc, inm === '__ETAG__' ? etag : inm);
    expect(r.status).toBe(status);
    if (status === 304) {
      expect(r.body).toBe('');
      expect(r.headers).toEqual({ ETag: etag, Vary: 'Accept', 'Cache-Control': 'public' });
    }
  });
});

describe('createDiscovery routes', () => {
  const d = createDiscovery(served, { serverAddress: '127.0.0.1:6443' });
  const aggregatedAccept = 'application/json;g=apidiscovery.svc.io;v=v2;as=APIGroupDiscoveryList,application/json';

  test.each<[string, string | undefined, string | null]>([
    ['/api', undefined, 'plain:APIVersions'],
    ['/api/', undefined, 'plain:APIVersions'],
    ['/apis', undefined, 'plain:APIGroupList'],
    ['/api', aggregatedAccept, 'aggregated'],
    ['/apis', aggregatedAccept, 'aggregated'],
    ['/api/v1', aggregatedAccept, 'plain:APIResourceList'],
    ['/apis/certificates.svc.io', undefined, 'plain:APIGroup'],
    ['/apis/certificates.svc.io/v1', undefined, 'plain:APIResourceList'],
    ['/apis/authentication.svc.io/v1/', undefined, 'plain:APIResourceList'],
    ['/apis/nope.svc.io', undefined, null],
    ['/apis/certificates.svc.io/v2', undefined, null],
    ['/api/v2', undefined, null],
    ['/apis/v1', undefined, null],
    ['/version', undefined, null],
  ])('%s (Accept %s) → %s', (path, accept, want) => {
    const r = d.serve({ path, accept });
    const got = r === null ? null : r.format === 'aggregated' ? 'aggregated' : `plain:${r.object.kind}`;
    expect(got).toBe(want);
  });

  test('304 on a matching If-None-Match; /api and /apis have different ETags', () => {
    const first = d.serve({ path: '/apis', accept: aggregatedAccept });
    if (first?.format !== 'aggregated') throw new Error('expected aggregated');
    const again = d.serve({ path: '/apis', accept: aggregatedAccept, ifNoneMatch: first.response.headers.ETag });
    expect(again?.format === 'aggregated' && again.response.status).toBe(304);
    const core = d.serve({ path: '/api', accept: aggregatedAccept });
    expect(core?.format === 'aggregated' && core.response.headers.ETag).not.toBe(first.response.headers.ETag);
    expect(JSON.parse(core?.format === 'aggregated' ? core.response.body : '{}').items[0].versions[0].resources).toHaveLength(2);
  });

  test('/api reports the configured server address', () => {
    const r = d.serve({ path: '/api' });
    expect(r?.format === 'plain' && r.object).toEqual({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }] });
  });
});

describe('/version', () => {
  test('all keys present, strings, emulation omitted unless given', () => {
    const v = versionInfo({ gitCommit: 'abc', buildDate: '2026-01-01T00:00:00Z', gitTreeState: 'clean', platform: 'linux/amd64' });
    expect(Object.keys(v)).toEqual(['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform']);
    expect(v).toMatchObject({ major: serverVersion.major, minor: serverVersion.minor, gitVersion: serverVersion.gitVersion, gitCommit: 'abc', platform: 'linux/amd64' });
    expect(Object.values(v).every((x) => typeof x === 'string')).toBe(true);
    const e = versionInfo({ emulation: { major: '1', minor: '31' }, minCompatibility: { major: '1', minor: '30' } });
    expect(Object.keys(e).slice(0, 6)).toEqual(['major', 'minor', 'emulationMajor', 'emulationMinor', 'minCompatibilityMajor', 'minCompatibilityMinor']);
  });

  test.each([
    ['linux', 'x64', 'linux/amd64'],
    ['darwin', 'arm64', 'darwin/arm64'],
    ['win32', 'ia32', 'windows/386'],
    ['linux', 'mips', 'linux/mips'],
  ])('platform %s/%s → %s', (p, a, want) => {
    expect(defaultPlatform(p, a)).toBe(want);
  });
});

describe('a resource served in several versions with categories (a CRD)', () => {
  const widget = (version: string): ResourceInfo => ({
    group: 'example.com',
    version,
    kind: 'Widget',
    listKind: 'WidgetList',
    resource: 'widgets',
    singular: 'widget',
    shortNames: ['wd'],
    categories: ['all', 'tools'],
    namespaced: true,
    verbs: ['get', 'list'],
    schema: NamespaceSchema,
    subresources: [],
    storageVersion: 'v1',
  });
  const both = [widget('v1'), widget('v1beta1')];

  test('every version names the storage version in its storageVersionHash, and lists the categories', () => {
    for (const v of ['v1', 'v1beta1']) {
      const [entry] = apiResourceList(both, 'example.com', v)!.resources;
      expect(entry.storageVersionHash).toBe(storageVersionHash('example.com', 'v1', 'Widget'));
      expect(entry.categories).toEqual(['all', 'tools']);
    }
  });

  test('aggregated discovery lists the categories too; GA first', () => {
    const doc = aggregatedDiscovery(both, 'apis').items.find((g) => g.metadata.name === 'example.com')!;
    expect(doc.versions.map((v) => v.version)).toEqual(['v1', 'v1beta1']);
    expect(doc.versions[0].resources[0].categories).toEqual(['all', 'tools']);
  });
});
