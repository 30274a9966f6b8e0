// The local twin for tests: deploy/topology.json planned into network namespaces under a temp dir
// on tmpfs, names prefixed "svct" on 10.213.0.128/25 (beside a `make cluster` on 10.213.0.0/25),
// Prometheus scraping every 5 s. Needs root: the fault tests cut links, which loopback mode cannot.
import { accessSync, constants, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canMakeNamespaces, localBinaries, which } from '../../../deploy/cluster/options';
import { planCluster } from '../../../deploy/cluster/plan';
import { LocalCluster } from '../../../deploy/cluster/runner';
import { topology } from '../../../deploy/topology';
import { repoRoot } from '../../e2e/support/apiserver';

export const scrapeInterval = '5s';

export async function startTwin(log: (line: string) => void): Promise<LocalCluster> {
  const prefix = 'svct';
  if (!canMakeNamespaces(prefix)) {
    throw new Error('the cluster tests need network namespaces (run as root, as CI does): `ip netns add` failed');
  }
  // tmpfs when there is one: etcd's fsyncs are free there, as in the e2e tests.
  // (The jest run's own /dev/shm directory first: test/support/tempDirReporter.js checks it.)
  const base = [process.env.SVC_TEST_SHM_DIR, '/dev/shm', tmpdir()].find((d) => {
    if (!d) return false;
    try {
      accessSync(d, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  });
  const root = mkdtempSync(join(base ?? tmpdir(), 'svc-cluster-'));
  const plan = planCluster(topology, {
    mode: 'netns',
    root,
    repoRoot,
    prefix,
    subnet: '10.213.0.128/25',
    loopbackSubnet: '127.0.0.0/24',
    binaries: localBinaries(which),
    scrapeInterval,
  });
  return LocalCluster.up(plan, log);
}
