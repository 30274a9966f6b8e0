// Process entries of the commands that take --api-naming: fix the naming profile before
// anything loads lib/api (its names are derived when it loads; docs/decisions.md "Naming profile").
import { namingFromArgv, selectNaming } from '../lib/api/naming/selection';

/** Selects --api-naming (default svc); an invalid value ends the process with a flag error. */
export function selectNamingFromArgv(argv: readonly string[]): void {
  try {
    selectNaming(namingFromArgv(argv) ?? 'svc');
  } catch (e) {
    process.stderr.write(`Error: --api-naming: ${(e as Error).message}\n`);
    process.exit(1);
  }
}

/** The --api-naming flag as both commands declare it. */
export const apiNamingFlagHelp =
  "Spelling of API groups, labels, annotations, signer names, the Protobuf media type and system namespaces: 'svc' (this product's) or 'k8s' (upstream's, so stock clients work unmodified).";
