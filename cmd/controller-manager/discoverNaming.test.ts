import { namingOfGroupList } from './discoverNaming';

describe('naming profile from discovery', () => {
  it.each([
    [{ kind: 'APIGroupList', groups: [{ name: 'rbac.authorization.svc.io' }, { name: 'certificates.svc.io' }] }, 'svc'],
    [{ kind: 'APIGroupList', groups: [{ name: 'certificates.k8s.io' }] }, 'k8s'],
    [{ kind: 'APIGroupList', groups: [{ name: 'coordination.svc.io' }] }, 'svc'],
    [{ kind: 'APIGroupList', groups: [] }, undefined],
    [{ kind: 'APIGroupList', groups: [{ name: 'example.com' }] }, undefined],
    [{ kind: 'Status' }, undefined],
    [null, undefined],
  ])('%j → %s', (body, want) => {
    expect(namingOfGroupList(body)).toBe(want);
  });
});
