import { FeatureGates } from './featureGates';

describe('FeatureGates', () => {
  test('defaults', () => {
    const g = FeatureGates.parse('');
    expect(g.isEnabled('APIResponseCompression')).toBe(true);
    expect(g.isEnabled('CBORServingAndStorage')).toBe(false);
  });
  test.each([
    ['APIResponseCompression=false', 'APIResponseCompression', false],
    ['CBORServingAndStorage=true, WatchList=false', 'CBORServingAndStorage', true],
    ['CBORServingAndStorage=true,WatchList=false', 'WatchList', false],
  ] as const)('%s', (spec, name, want) => {
    expect(FeatureGates.parse(spec).isEnabled(name)).toBe(want);
  });
  test.each([
    ['Nope=true', 'unrecognized feature gate: Nope'],
    ['WatchList', 'missing bool value for WatchList'],
    ['WatchList=maybe', 'invalid value of WatchList=maybe'],
    ['APIListChunking=false', 'locked to true'],
  ])('%s is refused', (spec, msg) => {
    expect(() => FeatureGates.parse(spec)).toThrow(msg);
  });
});
