import { FeatureGates } from '../api/featureGates';
import { ApiServerMetrics } from './metrics';

describe('feature metric', () => {
  test.each([
    ['', 'svc_feature_enabled{name="AllowUnsafeMalformedObjectDeletion",stage="ALPHA"} 0'],
    ['AllowUnsafeMalformedObjectDeletion=true', 'svc_feature_enabled{name="AllowUnsafeMalformedObjectDeletion",stage="ALPHA"} 1'],
    ['', 'svc_feature_enabled{name="APIListChunking",stage=""} 1'],
    ['WatchList=false', 'svc_feature_enabled{name="WatchList",stage="BETA"} 0'],
    ['', 'svc_feature_enabled{name="KMSv1",stage="DEPRECATED"} 0'],
    ['AllAlpha=true', 'svc_feature_enabled{name="AllAlpha",stage="ALPHA"} 1'],
  ])('--feature-gates=%j exposes %s', async (spec, line) => {
    const m = new ApiServerMetrics();
    m.recordFeatures(FeatureGates.parse(spec));
    const text = await m.registry.metrics();
    expect(text).toContain('# TYPE svc_feature_enabled gauge');
    expect(text).toContain('# HELP svc_feature_enabled This metric records the data about the stage and enablement of a svc feature.');
    expect(text.split('\n')).toContain(line);
  });
});
