import { activeNaming, namingFromArgv, selectNaming } from './selection';

describe('naming profile selection', () => {
  it.each([
    [['--api-naming=k8s'], 'k8s'],
    [['--api-naming', 'k8s', '--v=2'], 'k8s'],
    [['--api-naming=k8s', '--api-naming=svc'], 'svc'],
    [['--secure-port=0'], undefined],
    [['--', '--api-naming=k8s'], undefined],
  ])('reads %j from argv as %s', (argv, want) => {
    expect(namingFromArgv(argv)).toBe(want);
  });

  it('rejects an unknown profile', () => {
    expect(() => selectNaming('kube')).toThrow('invalid naming profile "kube": must be one of svc, k8s');
  });

  it('is fixed once read: the same choice is accepted again, another is refused', () => {
    jest.isolateModules(() => {
      const s = require('./selection') as typeof import('./selection');
      s.selectNaming('k8s');
      expect(s.activeNaming().name).toBe('k8s');
      expect(s.selectNaming('k8s').name).toBe('k8s');
      expect(() => s.selectNaming('svc')).toThrow(/already "k8s"/);
    });
  });

  it('is svc unless chosen', () => {
    expect(activeNaming().name).toBe('svc');
  });
});
