// The process entry: fixes the naming profile from --api-naming before anything loads lib/api
// (its names are derived when it loads; docs/design.md "Naming profile"), then runs main.
import { namingFromArgv, selectNaming } from '../../lib/api/naming/selection';

export async function run(argv: string[]): Promise<void> {
  try {
    selectNaming(namingFromArgv(argv) ?? 'svc');
  } catch (e) {
    process.stderr.write(`Error: --api-naming: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const { main } = await import('./main.js');
  await main(argv);
}
