import { discoverNamespacedResources, formatGroupVersionResource, GroupDiscoveryFailedError, parseGroupVersion } from './discovery';

const docs: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'] },
  '/apis': {
    kind: 'APIGroupList',
    groups: [
      {
        name: 'example.svc.io',
        versions: [
          { groupVersion: 'example.svc.io/v2', version: 'v2' },
          { groupVersion: 'example.svc.io/v1', version: 'v1' },
        ],
        preferredVersion: { groupVersion: 'example.svc.io/v2', version: 'v2' },
      },
      { name: 'rbac.authorization.svc.io', versions: [{ groupVersion: 'rbac.authorization.svc.io/v1', version: 'v1' }] },
    ],
  },
  '/api/v1': {
    groupVersion: 'v1',
    resources: [
      { name: 'namespaces', namespaced: false, kind: 'Namespace', verbs: ['delete', 'list'] },
      { name: 'serviceaccounts', namespaced: true, kind: 'ServiceAccount', verbs: ['delete', 'deletecollection', 'list'] },
      { name: 'serviceaccounts/token', namespaced: true, kind: 'TokenRequest', verbs: ['create'] },
    ],
  },
  '/apis/example.svc.io/v2': { groupVersion: 'example.svc.io/v2', resources: [{ name: 'widgets', namespaced: true, kind: 'Widget', verbs: ['delete', 'list'] }] },
  '/apis/example.svc.io/v1': { groupVersion: 'example.svc.io/v1', resources: [{ name: 'oldwidgets', namespaced: true, kind: 'Widget', verbs: ['delete'] }] },
  '/apis/rbac.authorization.svc.io/v1': {
    groupVersion: 'rbac.authorization.svc.io/v1',
    resources: [
      { name: 'clusterroles', namespaced: false, kind: 'ClusterRole', verbs: ['delete'] },
      { name: 'roles', namespaced: true, kind: 'Role', verbs: ['delete', 'deletecollection', 'list'] },
    ],
  },
};

function fetcher(failing: Record<string, Error> = {}): { fetch: (p: string) => Promise<unknown>; paths: string[] } {
  const paths: string[] = [];
  return {
    paths,
    fetch: async (p) => {
      paths.push(p);
      if (failing[p]) throw failing[p];
      if (!(p in docs)) throw new Error(`no document at ${p}`);
      return docs[p];
    },
  };
}

describe('discoverNamespacedResources', () => {
  test('namespaced top-level resources of each preferred version, core first', async () => {
    const f = fetcher();
    const got = await discoverNamespacedResources(f.fetch);
    expect(got.failure).toBeUndefined();
    expect(got.lists.map((l) => [l.groupVersion, l.resources.map((r) => r.name)])).toEqual([
      ['v1', ['serviceaccounts']],
      ['example.svc.io/v2', ['widgets']],
      ['rbac.authorization.svc.io/v1', ['roles']],
    ]);
    // Only preferred versions are read (the group's first version when none is marked preferred).
    expect(f.paths).not.toContain('/apis/example.svc.io/v1');
    expect(got.lists[0].resources[0]).toEqual({ name: 'serviceaccounts', namespaced: true, kind: 'ServiceAccount', verbs: ['delete', 'deletecollection', 'list'] });
  });

  test('a failing group-version is reported with client-go text; the rest still comes back', async () => {
    const got = await discoverNamespacedResources(
      fetcher({ '/apis/example.svc.io/v2': new Error('the server is currently unable to handle the request'), '/apis/rbac.authorization.svc.io/v1': new Error('x') }).fetch,
    );
    expect(got.lists.map((l) => l.groupVersion)).toEqual(['v1']);
    expect(got.failure).toBeInstanceOf(GroupDiscoveryFailedError);
    expect(got.failure?.groups.size).toBe(2);
    expect(got.failure?.message).toBe(
      'unable to retrieve the complete list of server APIs: example.svc.io/v2: the server is currently unable to handle the request, rbac.authorization.svc.io/v1: x',
    );
  });

  test.each(['/api', '/apis'])('%s failing fails discovery as a whole', async (p) => {
    await expect(discoverNamespacedResources(fetcher({ [p]: new Error('connection refused') }).fetch)).rejects.toThrow('connection refused');
  });
});

describe('parseGroupVersion', () => {
  test.each<[string, { group: string; version: string } | string]>([
    ['v1', { group: '', version: 'v1' }],
    ['', { group: '', version: '' }],
    ['rbac.authorization.svc.io/v1', { group: 'rbac.authorization.svc.io', version: 'v1' }],
    ['a/b/c', 'unexpected GroupVersion string: a/b/c'],
  ])('%j', (gv, want) => {
    if (typeof want === 'string') expect(() => parseGroupVersion(gv)).toThrow(want);
    else expect(parseGroupVersion(gv)).toEqual(want);
  });

  test('GroupVersionResource prints as Go does', () => {
    expect(formatGroupVersionResource({ group: '', version: 'v1', resource: 'serviceaccounts' })).toBe('/v1, Resource=serviceaccounts');
    expect(formatGroupVersionResource({ group: 'example.svc.io', version: 'v2', resource: 'widgets' })).toBe('example.svc.io/v2, Resource=widgets');
  });
});
