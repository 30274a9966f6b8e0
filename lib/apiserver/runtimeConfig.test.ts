import { certificatesigningrequests, leases, namespaces, serviceaccounts, type ResourceInfo } from '../api';
import { isServed, type ResourceConfig } from './resourceConfig';
import { convertLegacyGroup, parseConfigurationMap, resourceConfigFromFlag } from './runtimeConfig';

// A registry with GA, beta and alpha versions (the betas and alphas are test-only).
const leasesBeta: ResourceInfo = { ...leases, version: 'v1beta1', lifecycle: { introduced: { major: 1, minor: 30 } } };
const leasesAlpha: ResourceInfo = { ...leases, version: 'v1alpha2', lifecycle: { introduced: { major: 1, minor: 31 } } };
// Introduced before 1.22 (on by default), removal pushed past the current release.
const csrBetaOld: ResourceInfo = { ...certificatesigningrequests, version: 'v1beta1', lifecycle: { introduced: { major: 1, minor: 19 }, removed: { major: 1, minor: 35 } } };
// Defaults: deprecated 1.23, removed 1.26, so never served at 1.32 whatever the flag says.
const saBetaGone: ResourceInfo = { ...serviceaccounts, version: 'v1beta1', lifecycle: { introduced: { major: 1, minor: 20 } } };
const registered = [namespaces, serviceaccounts, saBetaGone, certificatesigningrequests, csrBetaOld, leases, leasesBeta, leasesAlpha];
const label = (i: ResourceInfo): string => `${i.group || 'core'}/${i.version}/${i.resource}`;
const served = (c: ResourceConfig): string[] => registered.filter((i) => isServed(c, i)).map(label);

describe('parseConfigurationMap (cliflag.ConfigurationMap)', () => {
  test.each([
    ['', []],
    ['a/v1', [['a/v1', '']]],
    [' a/v1 = false ,b/v1=true,,', [['a/v1', 'false'], ['b/v1', 'true']]],
    ['a/v1=x=y', [['a/v1', 'x=y']]],
    ['a/v1=false,a/v1=true', [['a/v1', 'true']]],
  ])('%j', (spec, entries) => {
    expect([...parseConfigurationMap(spec)]).toEqual(entries);
  });
});

describe('convertLegacyGroup (kube-apiserver Complete)', () => {
  test.each([
    ['v1=false', [['/v1', 'false']]],
    ['api/v1=false', [['/v1', 'false']]],
    // Upstream maps every core key, resource keys included, to the whole version.
    ['v1/serviceaccounts=false', [['/v1', 'false']]],
    ['api/v1/serviceaccounts=false', [['/v1', 'false']]],
    ['api/legacy=false,certificates.svc.io/v1', [['certificates.svc.io/v1', '']]],
  ])('%j', (spec, entries) => {
    expect([...convertLegacyGroup(parseConfigurationMap(spec))]).toEqual(entries);
  });
});

describe('--runtime-config → served resources', () => {
  const ga = ['core/v1/namespaces', 'core/v1/serviceaccounts', 'certificates.svc.io/v1/certificatesigningrequests', 'coordination.svc.io/v1/leases'];
  test.each<[string, string[]]>([
    // Defaults: GA on, alpha off, beta off unless introduced before 1.22 (spec §9).
    ['', [...ga.slice(0, 3), 'certificates.svc.io/v1beta1/certificatesigningrequests', ga[3]]],
    ['certificates.svc.io/v1=false', ['core/v1/namespaces', 'core/v1/serviceaccounts', 'certificates.svc.io/v1beta1/certificatesigningrequests', ga[3]]],
    ['certificates.svc.io/v1beta1=false', ga],
    ['certificates.svc.io/v1beta1=0', ga],
    ['coordination.svc.io/v1beta1', [...ga.slice(0, 3), 'certificates.svc.io/v1beta1/certificatesigningrequests', ga[3], 'coordination.svc.io/v1beta1/leases']],
    ['api/all=true', registered.filter((i) => i !== saBetaGone).map(label)],
    ['/v1beta1=true', [...ga.slice(0, 3), 'certificates.svc.io/v1beta1/certificatesigningrequests', ga[3]]],
    ['api/all=false,v1=true', ['core/v1/namespaces', 'core/v1/serviceaccounts']],
    ['api/all=false,api/v1', ['core/v1/namespaces', 'core/v1/serviceaccounts']],
    ['api/beta=false', ga],
    ['api/alpha=true,api/beta=false', [...ga, 'coordination.svc.io/v1alpha2/leases']],
    ['api/ga=false,api/beta=true', ['certificates.svc.io/v1beta1/certificatesigningrequests', 'coordination.svc.io/v1beta1/leases']],
    // A version key wins over the matchers whatever the order written.
    ['certificates.svc.io/v1=true,api/all=false', ['certificates.svc.io/v1/certificatesigningrequests']],
    // Resource keys win over their version's key; they may enable one resource of a disabled version.
    ['coordination.svc.io/v1/leases=false', ga.slice(0, 3).concat('certificates.svc.io/v1beta1/certificatesigningrequests')],
    ['api/all=false,v1=true,coordination.svc.io/v1alpha2/leases=true', ['core/v1/namespaces', 'core/v1/serviceaccounts', 'coordination.svc.io/v1alpha2/leases']],
    ['/v1/serviceaccounts=false,api/beta=false', ['core/v1/namespaces', ga[2], ga[3]]],
    // Upstream turns a core resource key into the whole core version.
    ['api/v1/serviceaccounts=false,api/beta=false', [ga[2], ga[3]]],
  ])('%j', (spec, want) => {
    expect(served(resourceConfigFromFlag(spec, registered))).toEqual(want);
  });

  // Upstream's messages: APIEnablementOptions.Validate, MergeAPIResourceConfigs, getRuntimeConfigValue.
  test.each([
    ['api/all=false', 'invalid key with only api/all=false'],
    // api/legacy is dropped before validation.
    ['api/all=false,api/legacy=true', 'invalid key with only api/all=false'],
    ['nope.svc.io/v1=true', 'unknown api groups nope.svc.io'],
    ['nope.svc.io/v1,other.svc.io/v2', 'unknown api groups nope.svc.io,other.svc.io'],
    ['certificates.svc.io', 'runtime-config invalid key certificates.svc.io'],
    ['a/b/c/d=true', 'runtime-config invalid key a/b/c/d'],
    ['certificates.svc.io/v2=true', 'group version certificates.svc.io/v2 that has not been registered'],
    ['v2=false', 'runtime-config invalid key v2'],
    ['/v2=false', 'group version v2 that has not been registered'],
    ['certificates.svc.io/v1=yes', 'invalid value of certificates.svc.io/v1: yes, err: strconv.ParseBool: parsing "yes": invalid syntax'],
    ['api/all=1', 'invalid value api/all=1'],
    ['api/ga', 'invalid value api/ga='],
    ['coordination.svc.io/v1/Leases=false', 'invalid key coordination.svc.io/v1/Leases: group/version/resource and resource is always lowercase plural, not "Leases"'],
  ])('%j fails: %s', (spec, message) => {
    expect(() => resourceConfigFromFlag(spec, registered)).toThrow(message);
  });
});
