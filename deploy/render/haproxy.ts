// deploy/haproxy/haproxy.cfg: TCP pass-through to the apiserver replicas (TLS ends at the
// apiserver, so client certificates still authenticate), each checked with GET /readyz over TLS.
// A replica that shuts down turns /readyz red first (--shutdown-delay-duration), so it leaves
// the pool before it stops accepting connections.
import { apiserverMembers, type Topology } from '../topology';
import type { Placement } from './commands';

/**
 * Under compose the replicas are whatever Docker's embedded DNS answers for the service name,
 * re-resolved every second: a server-template of maxReplicas slots fills and empties as
 * `--scale` adds and removes containers (and a restarted container comes back with another
 * address). The local twin's are named members at fixed addresses.
 */
export function renderHaproxy(t: Topology, p: Placement): string {
  const lb = t.loadBalancer;
  const a = t.apiserver;
  const interval = `${lb.checkIntervalSeconds}s`;
  const listen = p.listen(lb.name);
  const resolve = p.dockerDns ? ' resolvers docker init-addr none' : '';
  const servers = p.dockerDns
    ? [`  server-template ${a.service}- 1-${a.maxReplicas} ${a.service}:${a.securePort}`]
    : apiserverMembers(t).map((m) => `  server ${m} ${p.host(m)}:${a.securePort}`);
  return [
    '# Generated from deploy/topology.json by `make deploy-files` (deploy/generate.ts). Do not edit.',
    'global',
    '  log stdout format raw local0',
    '',
    // A removed replica's address leaves the answer at once (hold obsolete 0s): its slot empties.
    ...(p.dockerDns ? ['resolvers docker', '  nameserver dns 127.0.0.11:53', '  resolve_retries 3', '  timeout resolve 1s', '  timeout retry 1s', '  hold valid 10s', '  hold obsolete 0s', ''] : []),
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
    ...servers,
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
