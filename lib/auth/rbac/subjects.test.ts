import type { Subject } from '../../api/rbac';
import { serviceAccountUsername } from '../serviceaccount/identity';
import type { UserInfo } from '../user';
import { appliesToUser, describeSubject, firstApplyingSubject, isServiceAccountUser } from './subjects';

const alice: UserInfo = { name: 'alice', groups: ['ops', 'system:authenticated'] };
const robot: UserInfo = { name: 'system:serviceaccount:ns1:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1'] };

describe('appliesToUser', () => {
  it.each<[string, UserInfo, Subject, string, boolean]>([
    ['User by name', alice, { kind: 'User', name: 'alice' }, '', true],
    ['User other name', alice, { kind: 'User', name: 'bob' }, '', false],
    ['User subject does not match a group name', alice, { kind: 'User', name: 'ops' }, '', false],
    ['Group membership', alice, { kind: 'Group', name: 'ops' }, '', true],
    ['Group not held', alice, { kind: 'Group', name: 'admins' }, '', false],
    ['Group subject does not match the user name', alice, { kind: 'Group', name: 'alice' }, '', false],
    ['ServiceAccount with namespace', robot, { kind: 'ServiceAccount', name: 'robot', namespace: 'ns1' }, '', true],
    ['ServiceAccount namespace from the binding', robot, { kind: 'ServiceAccount', name: 'robot' }, 'ns1', true],
    ['ServiceAccount explicit namespace beats the binding', robot, { kind: 'ServiceAccount', name: 'robot', namespace: 'ns2' }, 'ns1', false],
    ['ServiceAccount without any namespace', robot, { kind: 'ServiceAccount', name: 'robot' }, '', false],
    ['ServiceAccount groups are ordinary groups', robot, { kind: 'Group', name: 'system:serviceaccounts:ns1' }, '', true],
    ['a User subject may name a ServiceAccount user', robot, { kind: 'User', name: 'system:serviceaccount:ns1:robot' }, '', true],
    ['unknown kind', alice, { kind: 'Robot', name: 'alice' }, '', false],
    ['kinds are case-sensitive', alice, { kind: 'user', name: 'alice' }, '', false],
  ])('%s', (_name, user, subject, ns, want) => {
    expect(appliesToUser(user, subject, ns)).toBe(want);
  });

  it('firstApplyingSubject gives the first match or -1', () => {
    expect(firstApplyingSubject(alice, [{ kind: 'User', name: 'x' }, { kind: 'Group', name: 'ops' }, { kind: 'User', name: 'alice' }], '')).toBe(1);
    expect(firstApplyingSubject(alice, [{ kind: 'User', name: 'x' }], '')).toBe(-1);
    expect(firstApplyingSubject(alice, undefined, '')).toBe(-1);
  });
});

describe('isServiceAccountUser agrees with serviceAccountUsername', () => {
  it.each<[string, string, string]>([
    ['system:serviceaccount:ns:sa', 'ns', 'sa'],
    ['system:serviceaccount:ns:sa', 'ns', 's'],
    ['system:serviceaccount:ns:sa', 'n', 's:sa'],
    ['system:serviceaccount:ns:sax', 'ns', 'sa'],
    ['system:serviceaccount:nsx:a', 'ns', 'xa'],
    ['system:serviceaccount:ns:sa', 'ns:sa', ''],
    ['system:serviceaccounts:ns:sa', 'ns', 'sa'],
    ['xystem:serviceaccount:ns:sa', 'ns', 'sa'],
    ['', '', ''],
  ])('%s vs %s/%s', (user, ns, name) => {
    expect(isServiceAccountUser(user, ns, name)).toBe(user === serviceAccountUsername(ns, name));
  });
});

describe('describeSubject', () => {
  it.each<[Subject, string, string]>([
    [{ kind: 'User', name: 'alice' }, '', 'User "alice"'],
    [{ kind: 'Group', name: 'system:masters' }, 'ns', 'Group "system:masters"'],
    [{ kind: 'ServiceAccount', name: 'robot', namespace: 'ns1' }, 'ns2', 'ServiceAccount "robot/ns1"'],
    [{ kind: 'ServiceAccount', name: 'robot' }, 'ns2', 'ServiceAccount "robot/ns2"'],
    [{ kind: 'User', name: 'a"b' }, '', 'User "a\\"b"'],
  ])('%j in %j → %s', (s, ns, want) => {
    expect(describeSubject(s, ns)).toBe(want);
  });
});
