import { parseServiceAccountUsername, serviceAccountGroups, serviceAccountUserInfo, serviceAccountUsername, type ServiceAccountInfo } from './identity';

describe('service account user names', () => {
  test('username and groups', () => {
    expect(serviceAccountUsername('team-a', 'builder')).toBe('system:serviceaccount:team-a:builder');
    expect(serviceAccountGroups('team-a')).toEqual(['system:serviceaccounts', 'system:serviceaccounts:team-a']);
  });

  test.each<[string, { namespace: string; name: string } | null]>([
    ['system:serviceaccount:team-a:builder', { namespace: 'team-a', name: 'builder' }],
    ['system:serviceaccount:ns:a.b-c', { namespace: 'ns', name: 'a.b-c' }],
    ['system:serviceaccount:ns', null],
    ['system:serviceaccount:ns:a:b', null],
    ['system:serviceaccount::name', null],
    ['system:serviceaccount:ns:', null],
    ['system:serviceaccount:Bad:name', null],
    ['system:serviceaccount:a.b:name', null],
    ['system:serviceaccount:ns:Name', null],
    ['system:serviceaccounts:ns', null],
    ['alice', null],
  ])('parse %s', (user, want) => {
    expect(parseServiceAccountUsername(user)).toEqual(want);
  });
});

describe('serviceAccountUserInfo', () => {
  const sa: ServiceAccountInfo = { namespace: 'ns', name: 'sa', uid: 'u' };
  const base = { name: 'system:serviceaccount:ns:sa', uid: 'u', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] };
  test.each<[string, Partial<ServiceAccountInfo>, object]>([
    ['plain: no extra at all', {}, base],
    ['credential id', { credentialId: 'JTI=j' }, { ...base, extra: { 'authentication.svc.io/credential-id': ['JTI=j'] } }],
    ['pod needs both name and uid', { podName: 'p' }, base],
    ['pod', { podName: 'p', podUid: 'pu' }, { ...base, extra: { 'authentication.svc.io/pod-name': ['p'], 'authentication.svc.io/pod-uid': ['pu'] } }],
    ['node uid only with a node name', { nodeUid: 'nu' }, base],
    ['node name without uid', { nodeName: 'n' }, { ...base, extra: { 'authentication.svc.io/node-name': ['n'] } }],
  ])('%s', (_n, more, want) => {
    expect(serviceAccountUserInfo({ ...sa, ...more })).toEqual(want);
  });
});
