import { testServerArgs } from './index';

describe('test server flags', () => {
  it('memory storage, a free port and the PKI in the given directory by default', () => {
    expect(testServerArgs('/t', {})).toEqual([
      '--api-naming=svc',
      '--bind-address=127.0.0.1',
      '--secure-port=0',
      '--cert-dir=/t/pki',
      '--write-kubeconfig=/t/admin.kubeconfig',
      '--storage-backend=memory',
      '--etcd-compaction-interval=0',
    ]);
  });

  it.each<[string, Parameters<typeof testServerArgs>[1], string[]]>([
    ['naming', { naming: 'k8s' }, ['--api-naming=k8s']],
    ['feature gates', { featureGates: { A: true, B: false } }, ['--feature-gates=A=true,B=false']],
    ['runtime config', { runtimeConfig: { 'api/beta': true } }, ['--runtime-config=api/beta=true']],
    ['etcd with a prefix', { storage: 'etcd', etcd: { endpoints: ['http://e1:2379', 'http://e2:2379'], prefix: '/mine' } }, ['--storage-backend=etcd3', '--etcd-servers=http://e1:2379,http://e2:2379', '--etcd-prefix=/mine']],
    ['extra flags last', { extraArgs: ['--v=4'] }, ['--v=4']],
  ])('%s', (_name, opts, want) => {
    expect(testServerArgs('/t', opts)).toEqual(expect.arrayContaining(want));
  });

  it('gives each etcd-backed server a prefix of its own', () => {
    const prefix = (): string | undefined => testServerArgs('/t', { storage: 'etcd', etcd: { endpoints: ['http://e:2379'] } }).find((a) => a.startsWith('--etcd-prefix='));
    expect(prefix()).toMatch(/^--etcd-prefix=\/svc-test-[0-9a-f-]{36}$/);
    expect(prefix()).not.toBe(prefix());
  });

  it('etcd storage needs endpoints', () => {
    expect(() => testServerArgs('/t', { storage: 'etcd' })).toThrow("startTestServer: storage 'etcd' needs etcd.endpoints");
  });
});
