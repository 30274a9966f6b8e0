import { LogDestination, type LogDestinationOptions } from './logDestination';

/** A fake fd: records what was written; `plan` scripts each call (bytes taken, or an errno to throw). */
function fakeFd(plan: (number | string | 'all')[] = []) {
  const written: string[] = [];
  let calls = 0;
  const write = (_fd: number, data: Uint8Array): number => {
    calls++;
    const step = plan.shift() ?? 'all';
    if (typeof step === 'string' && step !== 'all') throw Object.assign(new Error(step), { code: step });
    const n = step === 'all' ? data.length : Math.min(step, data.length);
    written.push(Buffer.from(data.subarray(0, n)).toString('utf8'));
    return n;
  };
  return { write, written, text: () => written.join(''), calls: () => calls };
}

function destination(fd: ReturnType<typeof fakeFd>, opts: LogDestinationOptions = {}, clock = { t: 0 }): LogDestination {
  return new LogDestination({ flushIntervalMs: 0, batchChars: 10, write: fd.write, now: () => clock.t, ...opts });
}

describe('LogDestination', () => {
  it('keeps lines until a batch is full, then writes them in one write, in order', () => {
    const fd = fakeFd();
    const d = destination(fd);
    d.write('a1\n');
    d.write('b2\n');
    d.write('c3\n');
    expect(fd.calls()).toBe(0);
    d.write('d4\n');
    expect(fd.written).toEqual(['a1\nb2\nc3\nd4\n']);
  });

  it('flush writes what waits, and nothing when nothing waits', () => {
    const fd = fakeFd();
    const d = destination(fd);
    d.flush();
    expect(fd.calls()).toBe(0);
    d.write('x\n');
    d.flush();
    expect(fd.written).toEqual(['x\n']);
  });

  it('writes UTF-8, continuing after a short write within the same flush', () => {
    const fd = fakeFd([3]);
    const d = destination(fd);
    d.write('héllo wörld\n');
    expect(fd.text()).toBe('héllo wörld\n');
    expect(fd.calls()).toBe(2);
  });

  it('keeps a batch the reader refused (EAGAIN) and retries it first, after retryAfterMs', () => {
    const fd = fakeFd([4, 'EAGAIN']);
    const clock = { t: 1000 };
    const d = destination(fd, { retryAfterMs: 100 }, clock);
    d.write('first line\n');
    expect(fd.text()).toBe('firs');
    d.write('second line\n');
    // Still within the wait: no attempt.
    expect(fd.calls()).toBe(2);
    clock.t = 1100;
    d.write('third line\n');
    expect(fd.text()).toBe('first line\nsecond line\nthird line\n');
  });

  it('flush waits no longer than needed: a flush after EAGAIN tries again at once', () => {
    const fd = fakeFd(['EAGAIN']);
    const d = destination(fd);
    d.write('0123456789\n');
    expect(fd.text()).toBe('');
    d.flush();
    expect(fd.text()).toBe('0123456789\n');
  });

  it('drops lines past maxPendingChars while the reader is stalled, then says how many', () => {
    const fd = fakeFd(['EAGAIN', 'EAGAIN']);
    const clock = { t: 5 };
    const d = destination(fd, { maxPendingChars: 30, batchChars: 1000, name: 'svc-apiserver' }, clock);
    for (let i = 0; i < 5; i++) d.write(`line ${i} xxxx\n`); // 12 chars each: two fit
    d.flush(); // EAGAIN
    d.flush(); // EAGAIN
    d.flush();
    const lines = fd.text().trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual(['line 0 xxxx', 'line 1 xxxx']);
    expect(JSON.parse(lines[2])).toEqual({ level: 40, time: 5, name: 'svc-apiserver', dropped: 3, msg: 'log lines dropped: the reader of the log did not keep up' });
    expect(lines).toHaveLength(3);
  });

  it('the notice comes before the first line accepted again', () => {
    const fd = fakeFd();
    const d = destination(fd, { maxPendingChars: 12, batchChars: 1000 });
    d.write('aaaaaaaaaa\n');
    d.write('bbbbbbbbbb\n'); // dropped
    d.flush();
    d.write('cc\n');
    d.flush();
    const lines = fd.text().trimEnd().split('\n');
    expect(lines[0]).toBe('aaaaaaaaaa');
    expect(JSON.parse(lines[1])).toMatchObject({ level: 40, dropped: 1 });
    expect(lines[2]).toBe('cc');
  });

  it('loses a batch the reader is gone for (EPIPE) without throwing, and goes on', () => {
    const fd = fakeFd(['EPIPE']);
    const d = destination(fd);
    expect(() => d.write('0123456789\n')).not.toThrow();
    d.write('next\n');
    d.flush();
    expect(fd.text()).toBe('next\n');
  });

  it('close writes the rest and stops the timer', () => {
    jest.useFakeTimers();
    try {
      const fd = fakeFd();
      const d = new LogDestination({ write: fd.write, flushIntervalMs: 1000 });
      d.write('quiet\n');
      jest.advanceTimersByTime(1000);
      expect(fd.text()).toBe('quiet\n');
      d.write('last\n');
      d.close();
      expect(fd.text()).toBe('quiet\nlast\n');
      d.write('after\n');
      jest.advanceTimersByTime(5000);
      expect(fd.text()).toBe('quiet\nlast\n');
    } finally {
      jest.useRealTimers();
    }
  });

  it('close retries a stalled reader a few times before giving up', () => {
    const fd = fakeFd(['EAGAIN', 'EAGAIN']);
    const d = destination(fd);
    d.write('bye\n');
    d.close();
    expect(fd.text()).toBe('bye\n');
    expect(fd.calls()).toBe(3);
  });
});
