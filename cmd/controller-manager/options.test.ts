import { FeatureGates, signerNames } from '../../lib/api';
import { FlagError } from '../flagSet';
import {
  canonicalControllerNames,
  ControllerManagerOptions,
  enabledControllers,
  isControllerEnabled,
  parseControllerManagerFlags,
  validateControllers,
} from './options';

const parse = (...args: string[]): ControllerManagerOptions => {
  const { options } = parseControllerManagerFlags(['--kubeconfig=/tmp/cm.kubeconfig', ...args]);
  if (!options) throw new Error('no options');
  return options;
};

describe('flags', () => {
  test('defaults follow kube-controller-manager', () => {
    const o = parse();
    expect(o).toEqual({
      kubeconfig: '/tmp/cm.kubeconfig',
      controllers: ['*'],
      leaderElection: {
        leaderElect: true,
        leaseDurationMs: 15_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
        resourceNamespace: 'svc-system',
        resourceName: 'svc-controller-manager',
      },
      signing: { durationMs: 8760 * 3600_000, perSigner: {} },
      concurrentNamespaceSyncs: 10,
      namespaceSyncPeriodMs: 300_000,
      csrCleaner: { pollingInterval: 3_600_000, approvedExpiration: 3_600_000, deniedExpiration: 3_600_000, pendingExpiration: 86_400_000 },
      bindAddress: '0.0.0.0',
      securePort: 10257,
      tlsCertFile: '',
      tlsPrivateKeyFile: '',
      features: FeatureGates.parse(''),
      verbosity: 0,
    });
  });

  test('--feature-gates uses the one registry and fails on a locked gate', () => {
    expect(parse('--feature-gates=AllowUnsafeMalformedObjectDeletion=true').features.isEnabled('AllowUnsafeMalformedObjectDeletion')).toBe(true);
    expect(() => parse('--feature-gates=APIListChunking=false')).toThrow(new FlagError('invalid argument "APIListChunking=false" for "--feature-gates" flag: cannot set feature gate APIListChunking to false, feature is locked to true'));
  });

  test('values given', () => {
    const o = parse(
      '--controllers=*,-csrcleaner',
      '--leader-elect-lease-duration=30s',
      '--leader-elect-renew-deadline',
      '20s',
      '--leader-elect-retry-period=4s',
      '--leader-elect-resource-namespace=other',
      '--leader-elect-resource-name=cm',
      '--cluster-signing-cert-file=ca.crt',
      '--cluster-signing-key-file=ca.key',
      '--cluster-signing-duration=24h',
      '--concurrent-namespace-syncs=3',
      '--namespace-sync-period=1m',
      '--csr-cleaner-polling-interval=500ms',
      '--csr-cleaner-approved-expiration=2s',
      '--csr-cleaner-denied-expiration=3s',
      '--csr-cleaner-pending-expiration=4s',
      '--bind-address=127.0.0.1',
      '--secure-port=0',
      '-v=4',
    );
    expect(o.controllers).toEqual(['*', '-csrcleaner']);
    expect(o.leaderElection).toMatchObject({ leaseDurationMs: 30_000, renewDeadlineMs: 20_000, retryPeriodMs: 4_000, resourceNamespace: 'other', resourceName: 'cm' });
    expect(o.signing).toEqual({ certFile: 'ca.crt', keyFile: 'ca.key', durationMs: 86_400_000, perSigner: {} });
    expect(o).toMatchObject({ concurrentNamespaceSyncs: 3, namespaceSyncPeriodMs: 60_000, bindAddress: '127.0.0.1', securePort: 0, verbosity: 4 });
    expect(o.csrCleaner).toEqual({ pollingInterval: 500, approvedExpiration: 2_000, deniedExpiration: 3_000, pendingExpiration: 4_000 });
    expect(parse('-v', '2').verbosity).toBe(2);
  });

  test('per-signer CA flags map to the signer names', () => {
    const o = parse(
      '--cluster-signing-svclet-serving-cert-file=s.crt',
      '--cluster-signing-svclet-serving-key-file=s.key',
      '--cluster-signing-svclet-client-cert-file=c.crt',
      '--cluster-signing-svclet-client-key-file=c.key',
      '--cluster-signing-svc-apiserver-client-cert-file=a.crt',
      '--cluster-signing-svc-apiserver-client-key-file=a.key',
      '--cluster-signing-legacy-unknown-cert-file=l.crt',
      '--cluster-signing-legacy-unknown-key-file=l.key',
    );
    expect(o.signing.perSigner).toEqual({
      [signerNames.svcletServing]: { certFile: 's.crt', keyFile: 's.key' },
      [signerNames.apiserverClientSvclet]: { certFile: 'c.crt', keyFile: 'c.key' },
      [signerNames.apiserverClient]: { certFile: 'a.crt', keyFile: 'a.key' },
      [signerNames.legacyUnknown]: { certFile: 'l.crt', keyFile: 'l.key' },
    });
    expect(o.signing.certFile).toBeUndefined();
  });

  test.each<[string, string[], RegExp]>([
    ['no kubeconfig', ['--kubeconfig='], /--kubeconfig is required/],
    ['unknown controller', ['--controllers=*,bogus'], /^"bogus" is not in the list of known controllers$/],
    ['unknown controller negated', ['--controllers=-bogus,nope'], /^"bogus" is not in the list of known controllers, "nope" is not in the list/],
    ['lease not longer than renew deadline', ['--leader-elect-lease-duration=10s'], /lease-duration must be greater than --leader-elect-renew-deadline/],
    ['renew deadline too close to retry period', ['--leader-elect-retry-period=9s'], /renew-deadline must be greater than 1.2/],
    ['lock type', ['--leader-elect-resource-lock=endpoints'], /resourceLock value must be "leases"/],
    ['half a signing pair', ['--cluster-signing-cert-file=ca.crt'], /--cluster-signing-cert-file and --cluster-signing-key-file must be given together/],
    [
      'default and per-signer pairs together',
      ['--cluster-signing-cert-file=ca.crt', '--cluster-signing-key-file=ca.key', '--cluster-signing-legacy-unknown-cert-file=l.crt', '--cluster-signing-legacy-unknown-key-file=l.key'],
      /cannot specify default and per controller certs at the same time/,
    ],
    ['bad duration', ['--cluster-signing-duration=1y'], /invalid argument "1y" for "--cluster-signing-duration" flag/],
    ['port out of range', ['--secure-port=70000'], /--secure-port 70000 must be between 0 and 65535/],
    ['half a TLS pair', ['--tls-cert-file=x.crt'], /--tls-cert-file and --tls-private-key-file must be given together/],
    ['unknown flag', ['--master=https://x'], /unknown flag: --master/],
    ['zero cleaner interval', ['--csr-cleaner-pending-expiration=0s'], /--csr-cleaner-pending-expiration must be greater than zero/],
  ])('%s is refused', (_n, args, msg) => {
    const run = (): unknown => parseControllerManagerFlags(['--kubeconfig=/tmp/k', ...args]);
    expect(run).toThrow(FlagError);
    expect(run).toThrow(msg);
  });

  test('leader-election timing is not checked when leader election is off', () => {
    expect(parse('--leader-elect=false', '--leader-elect-lease-duration=1s').leaderElection.leaderElect).toBe(false);
  });

  test('--help', () => {
    expect(parseControllerManagerFlags(['--help'])).toEqual({ help: true });
  });
});

describe('--controllers', () => {
  test.each<[string[], string[]]>([
    [['*'], ['csrsigning', 'csrapproving', 'csrcleaner', 'serviceaccount', 'namespace']],
    [['*', '-namespace'], ['csrsigning', 'csrapproving', 'csrcleaner', 'serviceaccount']],
    // The first entry naming a controller decides.
    [['-namespace', '*', 'namespace'], ['csrsigning', 'csrapproving', 'csrcleaner', 'serviceaccount']],
    [['namespace', '-namespace'], ['namespace']],
    // Without '*' only what is named runs.
    [['serviceaccount', 'csrsigning'], ['csrsigning', 'serviceaccount']],
    [['-csrsigning'], []],
    [[], []],
  ])('%j → %j', (controllers, want) => {
    expect(enabledControllers(controllers)).toEqual(want);
  });

  test('a disabled-by-default controller needs naming even with *', () => {
    expect(isControllerEnabled('x', ['*'], ['x'])).toBe(false);
    expect(isControllerEnabled('x', ['*', 'x'], ['x'])).toBe(true);
  });

  test('upstream canonical names are aliases', () => {
    expect(validateControllers(['namespace-controller', '-certificatesigningrequest-cleaner-controller'])).toEqual([]);
    expect(canonicalControllerNames(['*', 'namespace-controller', '-certificatesigningrequest-cleaner-controller', '-csrsigning'])).toEqual([
      '*',
      'namespace',
      '-csrcleaner',
      '-csrsigning',
    ]);
    expect(enabledControllers(parse('--controllers=*,-serviceaccount-controller').controllers)).not.toContain('serviceaccount');
  });
});
