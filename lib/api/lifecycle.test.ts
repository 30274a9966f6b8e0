import { deprecationWarning, isDeprecated, isRemoved, lifecycleReleases, removedRelease, stabilityOf, type ApiLifecycle, type Release } from './lifecycle';

const r = (minor: number): Release => ({ major: 1, minor });
const at32 = r(32);

describe('stabilityOf (upstream api/ga, api/beta, api/alpha patterns)', () => {
  test.each([
    ['v1', 'ga'],
    ['v12', 'ga'],
    ['v1beta1', 'beta'],
    ['v2beta3', 'beta'],
    ['v1alpha1', 'alpha'],
    ['v1beta', 'other'],
    ['v1foo', 'other'],
    ['beta1', 'other'],
  ])('%s → %s', (version, want) => {
    expect(stabilityOf(version)).toBe(want);
  });
});

describe('lifecycleReleases (prerelease-lifecycle-gen defaults)', () => {
  test.each<[string, string, ApiLifecycle | undefined, { deprecated?: Release; removed?: Release }]>([
    ['no tags', 'v1beta1', undefined, {}],
    ['beta: deprecated introduced+3, removed deprecated+3', 'v1beta1', { introduced: r(28) }, { deprecated: r(31), removed: r(34) }],
    ['alpha: same defaults', 'v1alpha1', { introduced: r(30) }, { deprecated: r(33), removed: r(36) }],
    ['explicit deprecated moves the default removal', 'v1beta1', { introduced: r(20), deprecated: r(30) }, { deprecated: r(30), removed: r(33) }],
    ['explicit removed', 'v2beta1', { introduced: r(20), deprecated: r(22), removed: r(40) }, { deprecated: r(22), removed: r(40) }],
    ['GA: never deprecated by default', 'v1', { introduced: r(19) }, {}],
    ['GA: deprecated only when it says so', 'v1', { introduced: r(19), deprecated: r(31) }, { deprecated: r(31) }],
  ])('%s', (_name, version, lc, want) => {
    const l = lifecycleReleases(version, lc);
    expect({ deprecated: l.deprecated, removed: l.removed }).toEqual({ deprecated: want.deprecated, removed: want.removed });
  });
});

describe('deprecation at release 1.32', () => {
  test.each<[string, ApiLifecycle, boolean, string, boolean]>([
    // name, lifecycle of a v1beta1, deprecated?, removed release, no longer served?
    ['deprecated this release', { introduced: r(29) }, true, '1.35', false],
    ['deprecated next release', { introduced: r(30) }, false, '1.36', false],
    ['removed this release', { introduced: r(26) }, true, '1.32', true],
    ['removed long ago', { introduced: r(20) }, true, '1.26', true],
    ['removal one release away', { introduced: r(27) }, true, '1.33', false],
  ])('%s', (_name, lc, deprecated, removed, gone) => {
    const l = lifecycleReleases('v1beta1', lc);
    expect(isDeprecated(l, at32)).toBe(deprecated);
    expect(removedRelease(l)).toBe(removed);
    expect(isRemoved(l, at32)).toBe(gone);
  });
  test('another major', () => {
    expect(isDeprecated(lifecycleReleases('v1beta1', { introduced: { major: 2, minor: 0 } }), at32)).toBe(false);
    expect(isDeprecated(lifecycleReleases('v1beta1', { introduced: { major: 0, minor: 40 } }), at32)).toBe(true);
  });
});

describe('deprecationWarning (deprecation.WarningMessage)', () => {
  test.each<[string, string, ApiLifecycle, string]>([
    ['batch/v1beta1', 'CronJob', { introduced: r(8), deprecated: r(21), removed: r(25), replacement: { group: 'batch', version: 'v1', kind: 'CronJob' } }, 'batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob'],
    ['coordination.svc.io/v1beta1', 'Lease', { introduced: r(14) }, 'coordination.svc.io/v1beta1 Lease is deprecated in v1.17+, unavailable in v1.20+'],
    ['v1beta1', 'Thing', { introduced: r(29), replacement: { group: '', version: 'v1', kind: 'Thing' } }, 'v1beta1 Thing is deprecated in v1.32+, unavailable in v1.35+; use v1 Thing'],
    ['example.svc.io/v1', 'Thing', { introduced: r(19), deprecated: r(30) }, 'example.svc.io/v1 Thing is deprecated in v1.30+'],
  ])('%s %s', (gv, kind, lc, want) => {
    expect(deprecationWarning(gv, kind, lifecycleReleases(gv.split('/').pop() ?? '', lc))).toBe(want);
  });
  test('not deprecated → no text', () => {
    expect(deprecationWarning('v1', 'Namespace', lifecycleReleases('v1', undefined))).toBe('');
  });
});
