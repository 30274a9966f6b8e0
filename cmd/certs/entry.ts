// The process entry: fixes the naming profile from --api-naming (the controller manager's
// certificate names it: system:svc-controller-manager or system:kube-controller-manager), then runs main.
import { selectNamingFromArgv } from '../namingEntry';

export async function run(argv: string[]): Promise<void> {
  selectNamingFromArgv(argv);
  const { main } = await import('./main.js');
  await main(argv);
}
