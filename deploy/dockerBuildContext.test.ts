// No Docker engine runs here, so `docker build` cannot show that deploy/Dockerfile's COPY
// sources reach the build: .dockerignore excludes everything and re-includes by name. This
// checks each COPY from the context against those rules.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');

/** Whether .dockerignore's rules (later rules win; `!` re-includes; `*` within a name, `**` across folders) send `path` to the build. */
function inContext(rules: string[], path: string): boolean {
  let included = true;
  for (const rule of rules) {
    const negated = rule.startsWith('!');
    const pattern = negated ? rule.slice(1) : rule;
    const source = pattern
      .split('**/')
      .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
      .join('(?:.*/)?');
    const re = new RegExp(`^${source}(?:/.*)?$`);
    if (re.test(path)) included = negated;
  }
  return included;
}

describe('the Docker build context', () => {
  const rules = readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const sources = readFileSync(join(root, 'deploy/Dockerfile'), 'utf8')
    .split('\n')
    .filter((l) => /^COPY\s/.test(l) && !/--from=/.test(l))
    .flatMap((l) => l.trim().split(/\s+/).slice(1, -1));

  it('reads the COPY lines', () => {
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'cmd', 'lib', 'bin', 'Makefile', 'native']));
  });

  it.each(sources)('%s exists and is sent to the build', (source) => {
    expect(existsSync(join(root, source))).toBe(true);
    expect(inContext(rules, source)).toBe(true);
  });

  it('the rules keep out what the build must not see', () => {
    expect(inContext(rules, 'node_modules')).toBe(false);
    expect(inContext(rules, 'dist')).toBe(false);
    expect(inContext(rules, 'lib/api/schema.test.ts')).toBe(false);
    expect(inContext(rules, 'lib/api/schema.ts')).toBe(true);
  });
});
