import { ControllerManagerMetrics } from './metrics';

test("a new queue exports every workqueue series at zero, as client-go's metrics provider does", async () => {
  const m = new ControllerManagerMetrics();
  m.workqueue.created?.('csrsigning');
  const text = await m.registry.metrics();
  for (const line of [
    'workqueue_adds_total{name="csrsigning"} 0',
    'workqueue_retries_total{name="csrsigning"} 0',
    'workqueue_depth{name="csrsigning"} 0',
    'workqueue_queue_duration_seconds_count{name="csrsigning"} 0',
    'workqueue_work_duration_seconds_count{name="csrsigning"} 0',
  ]) {
    expect(text).toContain(`${line}\n`);
  }
});

test("queue and work durations land in client-go's buckets (10 ns … 10 s)", async () => {
  const m = new ControllerManagerMetrics();
  m.workqueue.queued?.('namespace', 0.5);
  m.workqueue.worked?.('namespace', 0.002);
  const text = await m.registry.metrics();
  expect(text).toContain('workqueue_queue_duration_seconds_bucket{le="1",name="namespace"} 1\n');
  expect(text).toContain('workqueue_queue_duration_seconds_bucket{le="0.1",name="namespace"} 0\n');
  expect(text).toContain('workqueue_work_duration_seconds_bucket{le="0.01",name="namespace"} 1\n');
  expect(text).toContain('workqueue_work_duration_seconds_bucket{le="10",name="namespace"} 1\n');
});
