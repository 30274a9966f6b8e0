import { defaultMaxStreamsPerConnection, http2Limits, maxHeaderListSize, resourceBody99Percentile } from './http2Serving';

describe('http2Limits (upstream secure_serving.go)', () => {
  test.each([
    [0, defaultMaxStreamsPerConnection],
    [1, 1],
    [250, 250],
    [1000, 1000],
  ])('--http2-max-streams-per-connection=%d announces %d streams and sizes the connection window by them', (flag, streams) => {
    const l = http2Limits(flag);
    expect(l.maxConcurrentStreams).toBe(streams);
    expect(l.settings.maxConcurrentStreams).toBe(streams);
    expect(l.connectionWindowBytes).toBe(resourceBody99Percentile * streams);
    expect(l.maxSessionMemoryMB * 2 ** 20).toBeGreaterThan(l.connectionWindowBytes + maxHeaderListSize);
  });

  test('per-stream window and frame size are 256 KiB; the header list is MaxHeaderBytes plus Go\'s allowance', () => {
    const l = http2Limits(0);
    expect(l.settings).toMatchObject({ initialWindowSize: 256 * 1024, maxFrameSize: 256 * 1024, maxHeaderListSize: (1 << 20) + 320, enablePush: false });
  });

  test('the connection window stays within HTTP/2\'s 2^31-1', () => {
    expect(http2Limits(100_000).connectionWindowBytes).toBe(2 ** 31 - 1);
  });
});
