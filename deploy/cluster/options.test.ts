import { chooseMode, defaults, installHint, parseArgs, which } from './options';

test('defaults, and flags overriding them', () => {
  expect(parseArgs(['up'])).toEqual({ command: 'up', ...defaults, forceLoopback: false });
  expect(parseArgs(['down', '--root=/tmp/c', '--prefix=svct', '--subnet=10.213.0.128/25', '--loopback'])).toEqual({
    command: 'down',
    root: '/tmp/c',
    prefix: 'svct',
    subnet: '10.213.0.128/25',
    loopbackSubnet: defaults.loopbackSubnet,
    forceLoopback: true,
  });
});

test.each([[[]], [['start']], [['up', '--nope=1']], [['up', 'extra']]])('%j is a usage error', (argv) => {
  expect(() => parseArgs(argv)).toThrow();
});

test('without the privilege for namespaces it says so and falls back to 127.0.0.x', () => {
  expect(chooseMode(false, true)).toEqual({ mode: 'netns' });
  const fallback = chooseMode(false, false);
  expect(fallback.mode).toBe('loopback');
  expect(fallback.note).toMatch(/cannot create network namespaces.*127\.0\.0\.x/);
  expect(chooseMode(true, true).mode).toBe('loopback');
});

test('a missing HAProxy or Prometheus names what installs it; a missing etcd names make etcd', () => {
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    // A name no system has, so /usr/sbin and /sbin (always searched) cannot hold it.
    expect(() => which('svc-no-such-haproxy')).toThrow('svc-no-such-haproxy is not installed (make test-tools, i.e. scripts/install-test-tools.sh)');
  } finally {
    process.env.PATH = path;
  }
  expect(installHint('haproxy')).toBe('make test-tools, i.e. scripts/install-test-tools.sh');
  expect(installHint('etcd')).toBe('make etcd');
});
