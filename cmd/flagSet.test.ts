import { FlagError, parseDuration, parseFlags, FlagSpec } from './flagSet';

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
