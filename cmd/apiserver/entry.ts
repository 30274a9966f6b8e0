// The process entry: fixes the naming profile from --api-naming before anything loads lib/api,
// then runs main.
import { selectNamingFromArgv } from '../namingEntry';

export async function run(argv: string[]): Promise<void> {
  selectNamingFromArgv(argv);
  const { main } = await import('./main.js');
  await main(argv);
}
