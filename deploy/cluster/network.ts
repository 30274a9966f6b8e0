// The `ip` commands that build and remove the twin's network: one bridge with the host's address
// on it (so the host reaches every member), and per member a namespace joined to the bridge by a
// veth pair whose namespace end is eth0. Pure: argv lists the runner executes.
import type { ClusterPlan, Host } from './plan';

export type Command = string[];

export function networkUpCommands(plan: ClusterPlan): Command[] {
  const br = plan.bridge;
  if (!br) return []; // loopback mode: 127.0.0.0/8 is already routed to lo.
  const out: Command[] = [
    ['ip', 'link', 'add', br.name, 'type', 'bridge'],
    ['ip', 'addr', 'add', `${br.address}/${br.prefixLength}`, 'dev', br.name],
    ['ip', 'link', 'set', br.name, 'up'],
  ];
  for (const h of plan.hosts) {
    const { netns, vethHost } = namespaced(h);
    out.push(
      ['ip', 'netns', 'add', netns],
      ['ip', 'link', 'add', vethHost, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', netns],
      ['ip', 'link', 'set', vethHost, 'master', br.name],
      ['ip', 'link', 'set', vethHost, 'up'],
      ['ip', '-n', netns, 'link', 'set', 'lo', 'up'],
      ['ip', '-n', netns, 'addr', 'add', `${h.address}/${br.prefixLength}`, 'dev', 'eth0'],
      ['ip', '-n', netns, 'link', 'set', 'eth0', 'up'],
      ['ip', '-n', netns, 'route', 'add', 'default', 'via', br.address],
    );
  }
  return out;
}

/** Removing a namespace removes its veth pair; the bridge goes last. Each may fail (already gone). */
export function networkDownCommands(plan: ClusterPlan): Command[] {
  if (!plan.bridge) return [];
  return [...plan.hosts.map((h) => ['ip', 'netns', 'del', namespaced(h).netns]), ['ip', 'link', 'del', plan.bridge.name]];
}

/** Cuts a member off the network (or restores it) at the host end of its veth pair. */
export function linkCommand(plan: ClusterPlan, member: string, state: 'up' | 'down'): Command {
  const h = plan.hosts.find((x) => x.member === member);
  if (!h) throw new Error(`${member} is not a member of the cluster`);
  if (!h.vethHost) throw new Error(`cutting ${member} off needs network namespaces (the cluster runs in ${plan.mode} mode)`);
  return ['ip', 'link', 'set', h.vethHost, state];
}

function namespaced(h: Host): { netns: string; vethHost: string } {
  if (!h.netns || !h.vethHost) throw new Error(`${h.member} has no namespace`);
  return { netns: h.netns, vethHost: h.vethHost };
}
