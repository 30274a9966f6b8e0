// `make help` is derived from the Makefile: every .PHONY target, in the Makefile's order, with the
// comment block right above its rule; a target without one fails here rather than going unlisted.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support/apiserver';

const makefile = readFileSync(join(repoRoot, 'Makefile'), 'utf8').split('\n');
const phony = (makefile.find((l) => l.startsWith('.PHONY:')) ?? '').slice('.PHONY:'.length).trim().split(/\s+/);

/** The comment lines right above `target:`, joined as one paragraph ('' when there are none). */
function commentAbove(target: string): string {
  const at = makefile.findIndex((l) => l.startsWith(`${target}:`) && !l.startsWith(`${target}:=`));
  const lines: string[] = [];
  for (let i = at - 1; i >= 0 && makefile[i].startsWith('#'); i--) lines.unshift(makefile[i].replace(/^# ?/, ''));
  return lines.join(' ');
}

function makeHelp(): string {
  // make's own variables from a surrounding `make test` are not ours.
  const env = { ...process.env };
  for (const k of ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEOVERRIDES']) delete env[k];
  return execFileSync('make', ['--no-print-directory', 'help'], { cwd: repoRoot, env, encoding: 'utf8' });
}

/** Each listed target with its text, the wrapped lines joined back into one paragraph. */
function entries(help: string): Map<string, string> {
  const out = new Map<string, string>();
  let current: string | undefined;
  for (const line of help.split('\n').slice(1)) {
    const named = /^ {2}(\S+)(?: +(.*))?$/.exec(line);
    if (named) {
      current = named[1];
      out.set(current, named[2] ?? '');
    } else if (current && line.trim()) {
      out.set(current, `${out.get(current)} ${line.trim()}`.trim());
    }
  }
  return out;
}

const listed = entries(makeHelp());

test('make help lists every .PHONY target, in the Makefile\'s order, and nothing else', () => {
  expect(phony.length).toBeGreaterThan(10);
  const ruleOrder = phony.slice().sort((a, b) => makefile.findIndex((l) => l.startsWith(`${a}:`)) - makefile.findIndex((l) => l.startsWith(`${b}:`)));
  expect([...listed.keys()]).toEqual(ruleOrder);
});

test.each(phony)('%s says what it does: the comment above its rule', (target) => {
  const comment = commentAbove(target);
  expect(comment).not.toBe('');
  expect(listed.get(target)).toBe(comment);
});
