import { describeOutage, EtcdAvailability, type AvailabilityEvent, type ConnectionReport } from './availability';

const a = 'http://10.0.0.1:2379';
const b = 'http://10.0.0.2:2379';
const refused = (host: string): ConnectionReport => ({ ready: false, attempted: true, error: `connect ECONNREFUSED ${host}` });
const lost: ConnectionReport = { ready: false, attempted: false, error: 'read ECONNRESET' };
const ready: ConnectionReport = { ready: true };

/** Feeds [time, endpoint, report] steps; returns the events with the time each was emitted. */
function run(urls: string[], steps: [number, string, ConnectionReport][]): { events: [number, AvailabilityEvent][]; av: EtcdAvailability; at: () => number } {
  let t = 0;
  const events: [number, AvailabilityEvent][] = [];
  const av = new EtcdAvailability(urls, (e) => events.push([t, e]), () => t);
  for (const [time, url, r] of steps) {
    t = time;
    av.report(url, r);
  }
  return { events, av, at: () => t };
}

describe('one endpoint', () => {
  it.each<[string, [number, string, ConnectionReport][], [number, AvailabilityEvent][]]>([
    ['ready: nothing to say', [[0, a, ready]], []],
    ['lost and reconnected at once (a restart): no outage', [[0, a, ready], [10, a, lost], [12, a, ready]], []],
    [
      'down at start: the outage begins with the first failed attempt',
      [[5, a, refused('10.0.0.1:2379')]],
      [[5, { kind: 'unreachable', outage: { since: 5, endpoints: [{ url: a, error: 'connect ECONNREFUSED 10.0.0.1:2379' }] } }]],
    ],
    [
      'lost, then an attempt fails: the outage began when it was lost; retries are not announced again',
      [[0, a, ready], [100, a, lost], [101, a, refused('x')], [300, a, refused('x')], [900, a, refused('x')]],
      [[101, { kind: 'unreachable', outage: { since: 100, endpoints: [{ url: a, error: 'connect ECONNREFUSED x' }] } }]],
    ],
    [
      'back: announced once, with how long it lasted',
      [[0, a, ready], [100, a, lost], [101, a, refused('x')], [2600, a, ready], [2700, a, ready]],
      [
        [101, { kind: 'unreachable', outage: { since: 100, endpoints: [{ url: a, error: 'connect ECONNREFUSED x' }] } }],
        [2600, { kind: 'reachable', endpoint: a, since: 100, downMs: 2500 }],
      ],
    ],
    [
      'a second outage is announced again',
      [[0, a, refused('x')], [10, a, ready], [20, a, lost], [21, a, refused('y')]],
      [
        [0, { kind: 'unreachable', outage: { since: 0, endpoints: [{ url: a, error: 'connect ECONNREFUSED x' }] } }],
        [10, { kind: 'reachable', endpoint: a, since: 0, downMs: 10 }],
        [21, { kind: 'unreachable', outage: { since: 20, endpoints: [{ url: a, error: 'connect ECONNREFUSED y' }] } }],
      ],
    ],
    [
      'an attempt that failed without an error says so',
      [[0, a, { ready: false, attempted: true }]],
      [[0, { kind: 'unreachable', outage: { since: 0, endpoints: [{ url: a, error: 'the connection closed before the server answered' }] } }]],
    ],
  ])('%s', (_name, steps, want) => {
    expect(run([a], steps).events).toEqual(want);
  });
});

describe('two endpoints', () => {
  it('one down is no outage; both down is one, since the second stopped being ready', () => {
    const { events } = run(
      [a, b],
      [
        [0, a, ready],
        [0, b, ready],
        [10, a, lost],
        [11, a, refused('a')],
        [50, b, lost],
        [51, b, refused('b')],
        [60, a, refused('a')],
      ],
    );
    expect(events).toEqual([
      [
        51,
        {
          kind: 'unreachable',
          outage: {
            since: 50,
            endpoints: [
              { url: a, error: 'connect ECONNREFUSED a' },
              { url: b, error: 'connect ECONNREFUSED b' },
            ],
          },
        },
      ],
    ]);
  });

  it('one endpoint back ends the outage', () => {
    const { events, av } = run([a, b], [[0, a, refused('a')], [0, b, refused('b')], [30, b, ready]]);
    expect(events.map(([t, e]) => [t, e.kind])).toEqual([
      [0, 'unreachable'],
      [30, 'reachable'],
    ]);
    expect(av.outage()).toBeUndefined();
  });

  it('keeps each endpoint’s latest error during the outage (health checks read it)', () => {
    const { av } = run([a, b], [[0, a, refused('a')], [0, b, refused('b')], [5, a, { ready: false, attempted: true, error: 'connecting timed out' }]]);
    expect(av.outage()).toEqual({ since: 0, endpoints: [{ url: a, error: 'connecting timed out' }, { url: b, error: 'connect ECONNREFUSED b' }] });
  });

  it('reports for unknown endpoints are ignored', () => {
    expect(run([a], [[0, b, refused('b')]]).events).toEqual([]);
  });
});

it('describes an outage in one line: since when, how long, each endpoint and its error', () => {
  const outage = { since: Date.UTC(2026, 11, 2, 4, 31, 7, 412), endpoints: [{ url: a, error: 'connect ECONNREFUSED 10.0.0.1:2379' }, { url: b, error: 'not connected' }] };
  expect(describeOutage(outage, outage.since + 12_345)).toBe(
    'etcd unreachable since 2026-12-02T04:31:07.412Z (12.3 s): http://10.0.0.1:2379: connect ECONNREFUSED 10.0.0.1:2379; http://10.0.0.2:2379: not connected',
  );
  const { av } = run([a], [[1000, a, refused('10.0.0.1:2379')]]);
  expect(av.describe()).toBe('etcd unreachable since 1970-01-01T00:00:01.000Z (0.0 s): http://10.0.0.1:2379: connect ECONNREFUSED 10.0.0.1:2379');
});
