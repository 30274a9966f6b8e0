import { TurnFrames } from './turnFrames';

test('a frozen object gets one frame per key in a turn and a new one in the next; an unfrozen one always its own', async () => {
  const frames = new TurnFrames();
  const shared = Object.freeze({ metadata: { name: 'a' } });
  let made = 0;
  const make = (): Buffer => Buffer.from(`frame ${++made}`);
  const first = frames.get(shared, 'json:ADDED', make);
  expect(frames.get(shared, 'json:ADDED', make)).toBe(first);
  expect(frames.get(shared, 'json:MODIFIED', make)).not.toBe(first);
  expect(frames.get({ metadata: { name: 'b' } }, 'json:ADDED', make)).not.toBe(frames.get({ metadata: { name: 'b' } }, 'json:ADDED', make));
  await new Promise((r) => setImmediate(r));
  expect(frames.get(shared, 'json:ADDED', make)).not.toBe(first);
  expect(made).toBe(5);
});
