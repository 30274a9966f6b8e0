import { chooseEndpoint, type EndpointView } from './endpointChoice';

const now = 100_000;
const ready: EndpointView = { ready: true };
const busy: EndpointView = { ready: true, oldestInflightSince: now - 200 };
const stalled: EndpointView = { ready: true, oldestInflightSince: now - 5000 };
const down: EndpointView = { ready: false };

test.each<[string, EndpointView[], number, number | undefined]>([
  ['round-robin from start', [ready, ready, ready], 1, 1],
  ['wraps around', [ready, ready, ready], 3, 0],
  ['a call in flight for a short while is normal', [busy, ready, ready], 0, 0],
  ['a stalled endpoint (a cut-off member) is passed over', [stalled, ready, ready], 0, 1],
  ['not-ready endpoints are passed over', [down, stalled, ready], 0, 2],
  ['everything stalled: the first ready one still serves', [stalled, down, stalled], 1, 2],
  ['nothing ready: none', [down, down, down], 0, undefined],
])('%s', (_, views, start, want) => {
  expect(chooseEndpoint(views, start, now)).toBe(want);
});
