import { exportedNames, metricNames } from './metricNames';

test.each([
  ['up{job="etcd"} == 0', ['up']],
  ['sum by (job) (rate(apiserver_request_total{code=~"5.."}[5m])) / sum by (job) (rate(apiserver_request_total[5m]))', ['apiserver_request_total']],
  ['histogram_quantile(0.99, sum by (job, verb, le) (rate(apiserver_request_duration_seconds_bucket{verb!~"WATCH|CONNECT"}[5m])))', ['apiserver_request_duration_seconds_bucket']],
  ['sum(up{job="etcd"} == bool 1) by (job) < ((count(up{job="etcd"}) by (job) + 1) / 2)', ['up']],
  ['job:apiserver_request_errors:ratio_rate5m > 0.05', ['job:apiserver_request_errors:ratio_rate5m']],
  ['rate(a_total[5m] offset 1h) * on (instance) group_left (name) b_info', ['a_total', 'b_info']],
  ['sum(increase(etcd_server_leader_changes_seen_total[1h])) > 1e3', ['etcd_server_leader_changes_seen_total']],
  ['label_replace(x, "dst", "$1", "src", "(.*)")', ['x']],
])('%s reads %j', (expr, names) => {
  expect(metricNames(expr).sort()).toEqual([...names].sort());
});

test('exported names: samples, and the series of declared histograms', () => {
  const text = [
    '# HELP a_total A.',
    '# TYPE a_total counter',
    'a_total{x="1"} 3',
    '# TYPE h_seconds histogram',
    '# TYPE empty_total counter',
    'process_start_time_seconds 1',
  ].join('\n');
  expect([...exportedNames(text)].sort()).toEqual(['a_total', 'empty_total', 'h_seconds', 'h_seconds_bucket', 'h_seconds_count', 'h_seconds_sum', 'process_start_time_seconds']);
});
