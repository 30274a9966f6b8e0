// Which naming profile this module graph (process or worker thread) speaks. Modules derive
// their names from product.ts when they load, so the choice is made once, before the first
// of them loads, and is fixed from then on: a later different choice is an error, never a
// half-renamed server. Servers with another profile run in their own worker thread
// (lib/testing), which has its own module graph.
import { isNamingProfileName, NamingProfile, NamingProfileName, namingProfiles, namingProfileNames } from './profiles';

let chosen: NamingProfileName | undefined;
let fixed = false;

/** Chooses the profile; call before anything imports lib/api. */
export function selectNaming(name: string): NamingProfile {
  if (!isNamingProfileName(name)) throw new Error(`invalid naming profile "${name}": must be one of ${namingProfileNames.join(', ')}`);
  if (fixed && chosen !== name) {
    throw new Error(`the naming profile of this process is already "${activeNaming().name}": it is fixed when the API schemas load and cannot become "${name}" (start another process or worker)`);
  }
  chosen = name;
  return namingProfiles[name];
}

/** The profile in force (svc unless chosen); reading it fixes it. */
export function activeNaming(): NamingProfile {
  fixed = true;
  return namingProfiles[chosen ?? 'svc'];
}

/** Picks --api-naming out of raw argv before the flag parser (which loads lib/api) runs. */
export function namingFromArgv(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a.startsWith('--api-naming=')) found = a.slice('--api-naming='.length);
    else if (a === '--api-naming' && i + 1 < argv.length) found = argv[++i];
  }
  return found;
}
