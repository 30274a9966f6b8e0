// The kubectl minors installed beside the real kubectl binary (`kubectl.1.27` … `kubectl.1.33`).
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** The folder of the kubectl found on PATH, after symlinks (where its minors sit). */
function kubectlDir(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'kubectl');
    if (dir && existsSync(candidate)) return dirname(realpathSync(candidate));
  }
  throw new Error('kubectl is not on PATH');
}

/** The path of `kubectl.<minor>`, e.g. kubectlMinor('1.27'); it must exist. */
export function kubectlMinor(minor: string): string {
  const path = join(kubectlDir(), `kubectl.${minor}`);
  if (!existsSync(path)) throw new Error(`${path} is not installed`);
  return path;
}
