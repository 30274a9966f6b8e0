import { load } from 'js-yaml';
import { apiserverMembers, etcdServers, topology } from '../topology';
import { linkCommand, networkDownCommands, networkUpCommands } from './network';
import { members, planCluster, processOf, type ClusterOptions } from './plan';

const base: ClusterOptions = {
  mode: 'netns',
  root: '/data/cluster',
  repoRoot: '/repo',
  prefix: 'svc',
  subnet: '10.213.0.0/25',
  loopbackSubnet: '127.0.0.0/24',
  binaries: { node: '/bin/node', etcd: '/bin/etcd', haproxy: '/sbin/haproxy', prometheus: '/bin/prometheus' },
};
const plan = planCluster(topology, base);
const loopback = planCluster(topology, { ...base, mode: 'loopback' });
const addr = (m: string): string => plan.hosts.find((h) => h.member === m)?.address ?? '';

describe('the local twin of the compose topology', () => {
  test('every compose service but the one-shot PKI writer is a host, each with its own address', () => {
    const names = [...topology.etcd.members, ...apiserverMembers(topology), topology.loadBalancer.name, ...topology.controllerManager.members, topology.prometheus.name];
    expect(plan.hosts.map((h) => h.member)).toEqual(names);
    expect(new Set(plan.hosts.map((h) => h.address)).size).toBe(names.length);
    expect(plan.stages.flat().map((s) => s.member).sort()).toEqual([...names].sort());
  });

  test('stages start etcd, then the apiservers, the load balancer, the controller managers and Prometheus', () => {
    const roles = new Map(members(topology).map((m) => [m.member, m.role]));
    expect(plan.stages.map((s) => [...new Set(s.map((p) => roles.get(p.member)))])).toEqual([['etcd'], ['apiserver'], ['loadBalancer'], ['controllerManager'], ['prometheus']]);
  });

  test('netns mode: each member runs inside its namespace; loopback mode: on the host', () => {
    for (const s of plan.stages.flat()) expect(s.argv.slice(0, 4)).toEqual(['ip', 'netns', 'exec', `svc-${s.member}`]);
    for (const s of loopback.stages.flat()) expect(s.argv[0]).not.toBe('ip');
    expect(loopback.hosts.map((h) => h.address)).toEqual(plan.hosts.map((_, i) => `127.0.0.${10 + i}`));
    expect(loopback.bridge).toBeUndefined();
  });

  test("the apiservers reach every etcd member by address and serve the PKI under the cluster's root", () => {
    const cmd = processOf(plan, 'apiserver-2').argv;
    expect(cmd).toContain(`--etcd-servers=${etcdServers(topology, addr)}`);
    expect(cmd).toContain(`--bind-address=${addr('apiserver-2')}`);
    expect(cmd).toContain('--tls-cert-file=/data/cluster/pki/apiserver.crt');
    expect(cmd).toEqual(expect.arrayContaining(['--etcd-cafile=/data/cluster/pki/etcd/ca.crt', '--etcd-certfile=/data/cluster/pki/apiserver-etcd-client.crt', '--etcd-keyfile=/data/cluster/pki/apiserver-etcd-client.key']));
    expect(cmd.slice(4, 6)).toEqual(['/bin/node', '/repo/bin/svc-apiserver']);
    for (const f of topology.apiserver.flags) expect(cmd).toContain(f);
  });

  test('etcd members form one cluster of the three addresses', () => {
    const cmd = processOf(plan, 'etcd-3').argv;
    expect(cmd).toContain(`--initial-cluster=${topology.etcd.members.map((m) => `${m}=https://${addr(m)}:${topology.etcd.peerPort}`).join(',')}`);
    expect(cmd).toContain(`--listen-client-urls=https://${addr('etcd-3')}:${topology.etcd.clientPort}`);
    expect(cmd).toContain(`--listen-metrics-urls=http://${addr('etcd-3')}:${topology.etcd.metricsPort}`);
    expect(cmd).toContain('--data-dir=/data/cluster/etcd/etcd-3');
    expect(cmd).toEqual(expect.arrayContaining(['--cert-file=/data/cluster/pki/etcd/etcd-3/server.crt', '--peer-cert-file=/data/cluster/pki/etcd/etcd-3/peer.crt', '--trusted-ca-file=/data/cluster/pki/etcd/ca.crt', '--client-cert-auth=true', '--peer-client-cert-auth=true']));
    // Started once its metrics listener (plain HTTP) says healthy.
    expect(processOf(plan, 'etcd-3').ready).toBe(`http://${addr('etcd-3')}:${topology.etcd.metricsPort}/health`);
  });

  test("the etcd members' certificates name their addresses (svc-certs --etcd-members name=address)", () => {
    expect(plan.certs).toContain(`--etcd-members=${topology.etcd.members.map((m) => `${m}=${addr(m)}`).join(',')}`);
  });

  test('the serving certificate names the load balancer and every replica by address; kubeconfigs point at the load balancer', () => {
    const lb = addr(topology.loadBalancer.name);
    expect(plan.certs).toContain(`--apiserver-cert-extra-sans=${[lb, ...apiserverMembers(topology).map(addr), 'localhost'].join(',')}`);
    expect(plan.certs).toContain(`--control-plane-endpoint=${lb}:${topology.loadBalancer.port}`);
    expect(plan.kubeconfig).toEqual({ from: '/data/cluster/pki/admin.kubeconfig', to: '/data/cluster/admin.kubeconfig' });
  });

  test('HAProxy forwards to the replica addresses without Docker DNS; Prometheus scrapes the addresses and loads the rules', () => {
    const cfg = plan.files['/data/cluster/haproxy.cfg'];
    for (const m of apiserverMembers(topology)) expect(cfg).toContain(`server ${m} ${addr(m)}:${topology.apiserver.securePort}\n`);
    expect(cfg).not.toContain('resolvers');
    const prom = load(plan.files['/data/cluster/prometheus/prometheus.yml']) as { rule_files: string[]; scrape_configs: { static_configs: { targets: string[] }[] }[] };
    expect(prom.rule_files).toEqual(['/repo/deploy/prometheus/rules.yml']);
    expect(prom.scrape_configs.flatMap((j) => j.static_configs.flatMap((s) => s.targets)).map((t) => t.split(':')[0]).sort()).toEqual(
      [...apiserverMembers(topology), ...topology.controllerManager.members, ...topology.etcd.members].map(addr).sort(),
    );
  });

  test('a prefix that would overflow a link name is rejected', () => {
    expect(() => planCluster(topology, { ...base, prefix: 'muchtoolong' })).toThrow(/prefix/);
  });
});

describe('network commands', () => {
  test('a bridge with the gateway address, then per member a namespace, a veth pair on the bridge, an address and a default route', () => {
    const up = networkUpCommands(plan);
    expect(up.slice(0, 3)).toEqual([
      ['ip', 'link', 'add', 'svcbr0', 'type', 'bridge'],
      ['ip', 'addr', 'add', '10.213.0.1/25', 'dev', 'svcbr0'],
      ['ip', 'link', 'set', 'svcbr0', 'up'],
    ]);
    expect(up.slice(3, 11)).toEqual([
      ['ip', 'netns', 'add', 'svc-etcd-1'],
      ['ip', 'link', 'add', 'svcv0', 'type', 'veth', 'peer', 'name', 'eth0', 'netns', 'svc-etcd-1'],
      ['ip', 'link', 'set', 'svcv0', 'master', 'svcbr0'],
      ['ip', 'link', 'set', 'svcv0', 'up'],
      ['ip', '-n', 'svc-etcd-1', 'link', 'set', 'lo', 'up'],
      ['ip', '-n', 'svc-etcd-1', 'addr', 'add', '10.213.0.10/25', 'dev', 'eth0'],
      ['ip', '-n', 'svc-etcd-1', 'link', 'set', 'eth0', 'up'],
      ['ip', '-n', 'svc-etcd-1', 'route', 'add', 'default', 'via', '10.213.0.1'],
    ]);
    expect(up).toHaveLength(3 + 8 * plan.hosts.length);
    // Every link name fits Linux's 15 bytes.
    for (const c of up) for (const a of c) if (/^svc(v\d+|br0)$/.test(a)) expect(a.length).toBeLessThanOrEqual(15);
  });

  test('down removes every namespace (and with it the veth pair), then the bridge', () => {
    expect(networkDownCommands(plan)).toEqual([...plan.hosts.map((h) => ['ip', 'netns', 'del', `svc-${h.member}`]), ['ip', 'link', 'del', 'svcbr0']]);
  });

  test('loopback mode makes and removes nothing', () => {
    expect(networkUpCommands(loopback)).toEqual([]);
    expect(networkDownCommands(loopback)).toEqual([]);
  });

  test('a member is cut off at the host end of its veth pair; loopback mode cannot cut', () => {
    expect(linkCommand(plan, 'etcd-2', 'down')).toEqual(['ip', 'link', 'set', 'svcv1', 'down']);
    expect(() => linkCommand(loopback, 'etcd-2', 'down')).toThrow(/needs network namespaces/);
  });
});
