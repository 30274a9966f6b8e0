import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { armRequestTimeout, requestDeadlineMs, timeoutError } from './timeout';

class FakeResponse extends EventEmitter {
  headersSent = false;
  writableEnded = false;
  written: string[] = [];
  writeHead(code: number): this {
    this.headersSent = true;
    this.written.push(`head ${code}`);
    return this;
  }
  setHeader(): this {
    return this;
  }
  write(s: string): boolean {
    this.written.push(s);
    return true;
  }
  end(s?: string): this {
    if (s) this.written.push(s);
    this.writableEnded = true;
    return this;
  }
}

describe('request timeout', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('a slow handler gets a 504 and its later writes are dropped', () => {
    const res = new FakeResponse();
    armRequestTimeout(res as unknown as ServerResponse, 1000, () => {
      res.writeHead(504);
      res.end('timeout');
    });
    jest.advanceTimersByTime(999);
    expect(res.written).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(res.written).toEqual(['head 504', 'timeout']);
    res.writeHead(200);
    res.end('late body');
    expect(res.written).toEqual(['head 504', 'timeout']);
  });

  test('a handler that answered in time is left alone', () => {
    const res = new FakeResponse();
    const onTimeout = jest.fn();
    const disarm = armRequestTimeout(res as unknown as ServerResponse, 1000, onTimeout);
    res.writeHead(200);
    res.end('ok');
    disarm();
    jest.advanceTimersByTime(5000);
    expect(onTimeout).not.toHaveBeenCalled();
  });

  test('a deadline under a millisecond fires on the next turn, before any I/O completes', () => {
    const res = new FakeResponse();
    const onTimeout = jest.fn(() => res.writeHead(504));
    armRequestTimeout(res as unknown as ServerResponse, 0.000001, onTimeout);
    expect(onTimeout).not.toHaveBeenCalled();
    jest.runOnlyPendingTimers(); // runs the immediate
    expect(onTimeout).toHaveBeenCalledTimes(1);
  });

  test('a response already started is not replaced', () => {
    const res = new FakeResponse();
    const onTimeout = jest.fn();
    armRequestTimeout(res as unknown as ServerResponse, 10, onTimeout);
    res.writeHead(200);
    jest.advanceTimersByTime(20);
    expect(onTimeout).not.toHaveBeenCalled();
  });

  test.each([
    ['', 60_000],
    ['5s', 5000],
    ['2m', 60_000],
    ['0s', 60_000],
    ['-1s', 60_000],
  ])('?timeout=%s → %d ms', (value, ms) => {
    expect(requestDeadlineMs(new URLSearchParams(value ? { timeout: value } : {}), 60_000)).toBe(ms);
  });

  test('an unparsable ?timeout= is a 400', () => {
    expect(() => requestDeadlineMs(new URLSearchParams({ timeout: 'soon' }), 60_000)).toThrow(
      expect.objectContaining({ code: 400, message: 'invalid timeout specified in the request URL - time: invalid duration "soon"' }),
    );
  });

  test('the Status is upstream\'s Timeout', () => {
    const e = timeoutError();
    expect(e.code).toBe(504);
    expect(e.reason).toBe('Timeout');
    expect(e.message).toBe('Timeout: request did not complete within requested timeout - context deadline exceeded');
    // Upstream's NewTimeoutError always has Details: its JSON has "details":{} and no Retry-After.
    expect(JSON.stringify(e.status)).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: request did not complete within requested timeout - context deadline exceeded","reason":"Timeout","details":{},"code":504}',
    );
  });
});
