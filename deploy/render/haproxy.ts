// deploy/haproxy/haproxy.cfg: TCP pass-through to the apiserver replicas (TLS ends at the
// apiserver, so client certificates still authenticate), each checked with GET /readyz over TLS.
// A replica that shuts down turns /readyz red first (--shutdown-delay-duration), so it leaves
// the pool before it stops accepting connections.
import type { Topology } from '../topology';
import type { Placement } from './commands';

/**
 * dockerDns: compose's replicas are names re-resolved through Docker's embedded DNS (a restarted
 * container comes back with another address); the local twin's are fixed addresses.
 */
export function renderHaproxy(t: Topology, p: Placement, opts: { dockerDns: boolean }): string {
  const lb = t.loadBalancer;
  const interval = `${lb.checkIntervalSeconds}s`;
  const listen = p.listen(lb.name);
  const resolve = opts.dockerDns ? ' resolvers docker init-addr last,libc,none' : '';
  return [
    '# Generated from deploy/topology.json by `make deploy-files` (deploy/generate.ts). Do not edit.',
    'global',
    '  log stdout format raw local0',
    '',
    ...(opts.dockerDns ? ['resolvers docker', '  nameserver dns 127.0.0.11:53', '  hold valid 10s', ''] : []),
    'defaults',
    '  log global',
    '  mode tcp',
    '  option tcplog',
    '  timeout connect 5s',
    // A connection refused by a replica that died before its checks failed goes to another one.
    '  option redispatch',
    '  retries 3',
    // Watches are long-lived streams: the apiserver ends them, not the proxy.
    '  timeout client 1h',
    '  timeout server 1h',
    '  timeout tunnel 1h',
    '',
    'frontend apiserver',
    `  bind ${listen}:${lb.port}`,
    '  default_backend apiservers',
    '',
    'backend apiservers',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    `  default-server check check-ssl verify none inter ${interval} fall 2 rise 2${resolve}`,
    ...t.apiserver.members.map((m) => `  server ${m} ${p.host(m)}:${t.apiserver.securePort}`),
    '',
    'frontend health',
    '  mode http',
    `  bind ${listen}:${lb.healthPort}`,
    '  monitor-uri /healthz',
    '  monitor fail if { nbsrv(apiservers) lt 1 }',
    // Each replica's state as HAProxy sees it (the rolling upgrade waits for UP; not published).
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
}
