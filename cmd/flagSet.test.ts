import { FlagError, formatGoDuration, parseDuration, parseFeatureGatesFlag, parseFlags, FlagSpec, usage } from './flagSet';

const specs: FlagSpec[] = [
  { name: 'secure-port', type: 'int', default: 6443, help: '' },
  { name: 'etcd-servers', type: 'stringSlice', default: ['http://127.0.0.1:2379'], help: '' },
  { name: 'anonymous-auth', type: 'bool', default: true, help: '' },
  { name: 'cert-dir', type: 'string', default: 'data/pki', help: '' },
  { name: 'etcd-compaction-interval', type: 'duration', default: 300000, help: '' },
];

describe('parseFlags', () => {
  test.each([
    [['--secure-port=7443'], 'secure-port', 7443],
    [['--secure-port', '7443'], 'secure-port', 7443],
    [['--anonymous-auth=false'], 'anonymous-auth', false],
    [['--anonymous-auth'], 'anonymous-auth', true],
    [['--etcd-servers=http://a:1,http://b:2'], 'etcd-servers', ['http://a:1', 'http://b:2']],
    [['--etcd-servers=http://a:1', '--etcd-servers=http://b:2'], 'etcd-servers', ['http://a:1', 'http://b:2']],
    [[], 'etcd-servers', ['http://127.0.0.1:2379']],
    [['--etcd-compaction-interval=1m30s'], 'etcd-compaction-interval', 90000],
    [['--etcd-compaction-interval=0'], 'etcd-compaction-interval', 0],
  ] as const)('%j → %s', (argv, name, want) => {
    expect(parseFlags(argv, specs).values[name]).toEqual(want);
  });

  test.each([
    [['--nope'], 'unknown flag: --nope'],
    [['--secure-port=abc'], 'invalid argument "abc" for "--secure-port" flag'],
    [['--anonymous-auth=maybe'], 'strconv.ParseBool'],
    [['--cert-dir'], 'flag needs an argument: --cert-dir'],
    [['--etcd-compaction-interval=5x'], 'time: invalid duration "5x"'],
    [['stray'], 'unexpected argument "stray"'],
  ])('%j is refused', (argv, msg) => {
    expect(() => parseFlags(argv, specs)).toThrow(FlagError);
    expect(() => parseFlags(argv, specs)).toThrow(msg);
  });

  test('--help', () => {
    expect(parseFlags(['--help'], specs).help).toBe(true);
  });

  test.each([
    ['5m', 300000],
    ['1h', 3600000],
    ['500ms', 500],
    ['2h45m', 9900000],
  ])('duration %s', (s, ms) => {
    expect(parseDuration(s)).toBe(ms);
  });
});

describe('usage defaults as pflag prints them', () => {
  test.each([
    [0, '0s'],
    [250, '250ms'],
    [1500, '1.5s'],
    [60_000, '1m0s'],
    [300_000, '5m0s'],
    [31_536_000_000, '8760h0m0s'],
  ])('%d ms → %s', (ms, text) => expect(formatGoDuration(ms)).toBe(text));

  test('strings quoted, durations in Go form, zero values left out', () => {
    const text = usage('x', [
      { name: 'path', type: 'string', default: '/registry', help: 'p.' },
      { name: 'empty', type: 'string', default: '', help: 'e.' },
      { name: 'timeout', type: 'duration', default: 60_000, help: 't.' },
      { name: 'modes', type: 'stringSlice', default: ['RBAC'], help: 'm.' },
      { name: 'on', type: 'bool', default: true, help: 'o.' },
      { name: 'off', type: 'bool', default: false, help: 'f.' },
      { name: 'port', type: 'int', default: 6443, help: 'n.' },
    ]);
    expect(text).toContain('p. (default "/registry")');
    expect(text).toContain('e.\n');
    expect(text).toContain('t. (default 1m0s)');
    expect(text).toContain('m. (default [RBAC])');
    expect(text).toContain('o. (default true)');
    expect(text).toContain('f.\n');
    expect(text).toContain('n. (default 6443)');
  });

  test('multi-line help keeps its continuation lines indented', () => {
    const text = usage('x', [{ name: 'feature-gates', type: 'string', default: '', help: 'Options are:\nA=true|false (ALPHA - default=false)\nB=true|false (BETA - default=true)' }]);
    expect(text).toContain('      --feature-gates string\n            Options are:\n            A=true|false (ALPHA - default=false)\n            B=true|false (BETA - default=true)\n');
  });
});

describe('--feature-gates through parseFeatureGatesFlag', () => {
  test.each([
    ['APIListChunking=false', 'invalid argument "APIListChunking=false" for "--feature-gates" flag: cannot set feature gate APIListChunking to false, feature is locked to true'],
    ['Bogus=true', 'invalid argument "Bogus=true" for "--feature-gates" flag: unrecognized feature gate: Bogus'],
    ['WatchList=yes', 'invalid argument "WatchList=yes" for "--feature-gates" flag: invalid value of WatchList=yes, err: strconv.ParseBool: parsing "yes": invalid syntax'],
  ])('%s', (value, msg) => {
    expect(() => parseFeatureGatesFlag({ 'feature-gates': value })).toThrow(new FlagError(msg));
  });

  test('a valid value gives the gates', () => {
    expect(parseFeatureGatesFlag({ 'feature-gates': 'AllowUnsafeMalformedObjectDeletion=true' }).isEnabled('AllowUnsafeMalformedObjectDeletion')).toBe(true);
  });
});
