// The process entry: reads the apiserver's naming profile from discovery and fixes it before
// anything loads lib/api (its names are derived when it loads), then runs main.
import { selectNaming } from '../../lib/api/naming/selection';
import { loadKubeconfig } from '../../lib/client/kubeconfig';
import { discoverNaming } from './discoverNaming';

/** --kubeconfig from raw argv (the flag parser loads lib/api). */
function kubeconfigFromArgv(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a.startsWith('--kubeconfig=')) found = a.slice('--kubeconfig='.length);
    else if (a === '--kubeconfig' && i + 1 < argv.length) found = argv[++i];
  }
  return found;
}

export async function run(argv: string[]): Promise<void> {
  const file = kubeconfigFromArgv(argv);
  const wantsHelp = argv.some((a) => a === '-h' || a === '--help');
  // Without a usable kubeconfig main reports the error (or prints help) in its own words.
  if (file && !wantsHelp) {
    let kc: Awaited<ReturnType<typeof loadKubeconfig>> | undefined;
    try {
      kc = await loadKubeconfig(file);
    } catch {
      kc = undefined;
    }
    if (kc) {
      let told = false;
      const name = await discoverNaming(kc, {
        onRetry: (reason) => {
          if (!told) process.stderr.write(`waiting for the apiserver's discovery to learn its naming profile: ${reason}\n`);
          told = true;
        },
      });
      selectNaming(name);
    }
  }
  const { main } = await import('./main.js');
  await main(argv);
}
