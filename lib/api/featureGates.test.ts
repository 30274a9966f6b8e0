import { featureGatesFlagHelp, FeatureGates, FeatureName, knownFeatureLines, knownFeatures, stageLabel } from './featureGates';

describe('FeatureGates.parse', () => {
  test('defaults come from the registry', () => {
    const g = FeatureGates.parse('');
    for (const name of Object.keys(knownFeatures) as FeatureName[]) expect(g.isEnabled(name)).toBe(knownFeatures[name].default);
    expect(g.warnings).toEqual([]);
  });

  test.each<[string, FeatureName, boolean]>([
    ['APIResponseCompression=false', 'APIResponseCompression', false],
    ['CBORServingAndStorage=true, WatchList=false', 'CBORServingAndStorage', true],
    ['CBORServingAndStorage=true,WatchList=false', 'WatchList', false],
    [' AllowUnsafeMalformedObjectDeletion = T ', 'AllowUnsafeMalformedObjectDeletion', true],
    ['WatchList=false,WatchList=1', 'WatchList', true],
    ['APIListChunking=true', 'APIListChunking', true],
    [',,', 'WatchList', true],
    // AllAlpha / AllBeta set every gate of their stage that is not named explicitly.
    ['AllAlpha=true', 'AllowUnsafeMalformedObjectDeletion', true],
    ['AllAlpha=true', 'WatchListClient', false],
    ['AllowUnsafeMalformedObjectDeletion=false,AllAlpha=true', 'AllowUnsafeMalformedObjectDeletion', false],
    ['AllAlpha=true,AllowUnsafeMalformedObjectDeletion=false', 'AllowUnsafeMalformedObjectDeletion', false],
    ['AllBeta=false', 'APIResponseCompression', false],
    ['AllBeta=true', 'WatchListClient', true],
    ['AllBeta=false,WatchList=true', 'WatchList', true],
    ['AllBeta=false', 'APIListChunking', true],
    ['AllBeta=false', 'CBORServingAndStorage', false],
    ['AllAlpha=true', 'AllAlpha', true],
  ])('%s → %s=%s', (spec, name, want) => {
    expect(FeatureGates.parse(spec).isEnabled(name)).toBe(want);
  });

  test.each([
    ['Nope=true', 'unrecognized feature gate: Nope'],
    ['WatchList', 'missing bool value for WatchList'],
    [' WatchList ', 'missing bool value for WatchList'],
    ['WatchList=maybe', 'invalid value of WatchList=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'],
    ['WatchList=', 'invalid value of WatchList=, err: strconv.ParseBool: parsing "": invalid syntax'],
    ['APIListChunking=false', 'cannot set feature gate APIListChunking to false, feature is locked to true'],
    ['ServiceAccountTokenJTI=0', 'cannot set feature gate ServiceAccountTokenJTI to false, feature is locked to true'],
    ['APIListChunking=false,RetryGenerateName=false', '[cannot set feature gate APIListChunking to false, feature is locked to true, cannot set feature gate RetryGenerateName to false, feature is locked to true]'],
    ['apiresponsecompression=true', 'unrecognized feature gate: apiresponsecompression'],
  ])('%s is refused: %s', (spec, msg) => {
    let got: unknown;
    try {
      FeatureGates.parse(spec);
    } catch (e) {
      got = e;
    }
    expect((got as Error).message).toBe(msg);
  });

  test.each([
    ['APIListChunking=true', 'Setting GA feature gate APIListChunking=true. It will be removed in a future release.'],
    ['KMSv1=true', 'Setting deprecated feature gate KMSv1=true. It will be removed in a future release.'],
    ['AllowDNSOnlyNodeCSR=false', 'Setting deprecated feature gate AllowDNSOnlyNodeCSR=false. It will be removed in a future release.'],
  ])('%s warns', (spec, warning) => {
    expect(FeatureGates.parse(spec).warnings).toEqual([warning]);
  });

  test('alpha and beta gates set explicitly do not warn', () => {
    expect(FeatureGates.parse('WatchList=false,AllAlpha=true,CBORServingAndStorage=true').warnings).toEqual([]);
  });
});

describe('registry', () => {
  test.each<[FeatureName, boolean, string, boolean]>([
    // name, default, stage, locked — as at kube-apiserver 1.32
    ['AllAlpha', false, 'ALPHA', false],
    ['AllBeta', false, 'BETA', false],
    ['AllowUnsafeMalformedObjectDeletion', false, 'ALPHA', false],
    ['AggregatedDiscoveryEndpoint', true, 'GA', true],
    ['APIListChunking', true, 'GA', true],
    ['WatchList', true, 'BETA', false],
    ['ConsistentListFromCache', true, 'BETA', false],
    ['KMSv1', false, 'DEPRECATED', false],
    ['RetryGenerateName', true, 'GA', true],
    ['ServiceAccountTokenNodeBinding', true, 'BETA', false],
    ['ClusterTrustBundle', false, 'ALPHA', false],
  ])('%s: default=%s stage=%s locked=%s', (name, def, stage, locked) => {
    const spec: { default: boolean; stage: string; lockToDefault?: boolean } = knownFeatures[name];
    expect(spec.default).toBe(def);
    expect(spec.stage).toBe(stage);
    expect(spec.lockToDefault ?? false).toBe(locked);
  });

  test('every locked gate is GA or deprecated, and GA gates are locked to true', () => {
    for (const [name, spec] of Object.entries(knownFeatures) as Array<[string, { default: boolean; stage: string; lockToDefault?: boolean }]>) {
      if (spec.stage === 'GA') expect([name, spec.lockToDefault, spec.default]).toEqual([name, true, true]);
      if (spec.lockToDefault) expect(['GA', 'DEPRECATED']).toContain(spec.stage);
    }
  });
});

describe('--feature-gates help', () => {
  test('one sorted line per alpha/beta gate plus AllAlpha/AllBeta; GA and deprecated hidden', () => {
    const lines = knownFeatureLines();
    expect(lines).toEqual([...lines].sort());
    expect(lines).toContain('AllAlpha=true|false (ALPHA - default=false)');
    expect(lines).toContain('AllBeta=true|false (BETA - default=false)');
    expect(lines).toContain('AllowUnsafeMalformedObjectDeletion=true|false (ALPHA - default=false)');
    expect(lines).toContain('APIResponseCompression=true|false (BETA - default=true)');
    expect(lines.some((l) => l.startsWith('APIListChunking='))).toBe(false);
    expect(lines.some((l) => l.startsWith('KMSv1='))).toBe(false);
    const shown = Object.values(knownFeatures).filter((s) => s.stage === 'ALPHA' || s.stage === 'BETA').length;
    expect(lines).toHaveLength(shown);
    // Go's sort.Strings is byte order: upper case before lower case.
    expect(lines.indexOf('APIResponseCompression=true|false (BETA - default=true)')).toBeLessThan(lines.indexOf('AllAlpha=true|false (ALPHA - default=false)'));
  });

  test('flag help is upstream AddFlag text then the lines', () => {
    expect(featureGatesFlagHelp()).toBe(`A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n${knownFeatureLines().join('\n')}`);
  });
});

describe('metric states', () => {
  test.each([
    ['GA', ''],
    ['ALPHA', 'ALPHA'],
    ['BETA', 'BETA'],
    ['DEPRECATED', 'DEPRECATED'],
  ] as const)('stage %s is labelled %j', (stage, label) => {
    expect(stageLabel(stage)).toBe(label);
  });

  test('every gate has a series with its state', () => {
    const states = FeatureGates.parse('AllowUnsafeMalformedObjectDeletion=true,WatchList=false').states();
    expect(states).toHaveLength(Object.keys(knownFeatures).length);
    expect(states).toContainEqual({ name: 'AllowUnsafeMalformedObjectDeletion', stage: 'ALPHA', enabled: true });
    expect(states).toContainEqual({ name: 'WatchList', stage: 'BETA', enabled: false });
    expect(states).toContainEqual({ name: 'APIListChunking', stage: '', enabled: true });
    expect(states).toContainEqual({ name: 'AllAlpha', stage: 'ALPHA', enabled: false });
  });
});
