import { RequestWaitGroup } from './waitGroup';

test('wait resolves when the count reaches zero and refuses later adds', async () => {
  const wg = new RequestWaitGroup();
  expect(wg.add()).toBe(true);
  expect(wg.add()).toBe(true);
  let resolved = false;
  const w = wg.wait().then(() => (resolved = true));
  expect(wg.add()).toBe(false);
  wg.done();
  await Promise.resolve();
  expect(resolved).toBe(false);
  wg.done();
  await w;
  expect(resolved).toBe(true);
  wg.done(); // extra done is harmless
  expect(wg.count).toBe(0);
});

test('wait on an empty group resolves at once', async () => {
  await expect(new RequestWaitGroup().wait()).resolves.toBeUndefined();
});
