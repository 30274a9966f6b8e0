import { chooseMode, defaults, parseArgs } from './options';

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
