// `make cluster` / `make cluster-down`: the compose topology as local hosts (deploy/cluster/plan.ts).
import * as path from 'node:path';
import { topology } from '../topology';
import { canMakeNamespaces, chooseMode, localBinaries, parseArgs, which } from './options';
import { planCluster } from './plan';
import { LocalCluster } from './runner';

async function main(): Promise<void> {
  const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
  const args = parseArgs(process.argv.slice(2));
  const root = path.resolve(repoRoot, args.root);
  const log = (line: string): void => void process.stdout.write(`${line}\n`);
  if (args.command === 'down') {
    const c = LocalCluster.load(root, log);
    if (!c) {
      log(`cluster: nothing recorded in ${root}`);
      return;
    }
    await c.down();
    log(`cluster: removed every process, namespace and link of ${root}`);
    return;
  }
  const { mode, note } = chooseMode(args.forceLoopback, !args.forceLoopback && canMakeNamespaces(args.prefix));
  if (note) log(note);
  const plan = planCluster(topology, { mode, root, repoRoot, prefix: args.prefix, subnet: args.subnet, loopbackSubnet: args.loopbackSubnet, binaries: localBinaries(which) });
  const c = await LocalCluster.up(plan, log);
  const lb = c.address(topology.loadBalancer.name);
  log(`cluster: up. kubectl --kubeconfig=${plan.kubeconfig.to} get --raw /readyz   (load balancer https://${lb}:${topology.loadBalancer.port})`);
  log(`cluster: Prometheus http://${c.address(topology.prometheus.name)}:${topology.prometheus.port}; logs in ${path.join(root, 'logs')}; make cluster-down removes it`);
}

main().catch((e: unknown) => {
  process.stderr.write(`cluster: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
