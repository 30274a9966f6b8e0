// @ts-check
// Tests clean up what they make. Every jest run gets temp directories of its own, and a run
// that leaves anything in them fails: at the run's start TMPDIR (os.tmpdir(), mkdtemp, and every
// process a test starts: the apiserver, openssl, etcd, python) points at a fresh directory, and
// SVC_TEST_SHM_DIR at one on /dev/shm (where the etcd test helper keeps its data dirs). Workers
// are forked after onRunStart and inherit both, so whatever is left at onRunComplete was left by
// this run, whichever worker left it, and never by another run on the same machine. Leftovers
// are listed on stderr and removed; getLastError makes jest exit non-zero (success: false).
// Plain CommonJS: jest loads reporters with require, untransformed.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** Top-level entries of dir with their file counts, e.g. `svc-csr-Ab12 (2 files)`. */
function leftovers(dir) {
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.sort().map((name) => {
    const full = path.join(dir, name);
    let files = 0;
    try {
      if (fs.statSync(full).isDirectory()) files = fs.readdirSync(full, { recursive: true }).length;
      else return name;
    } catch {
      return name;
    }
    return `${name} (${files} ${files === 1 ? 'entry' : 'entries'})`;
  });
}

function writableDir(dir) {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * @typedef {object} Options
 * @property {Record<string, string | undefined>} [env] where the directories are announced (default process.env)
 * @property {string} [tmpBase] parent of the run's TMPDIR (default os.tmpdir() at the run's start)
 * @property {string} [shmBase] parent of the run's SVC_TEST_SHM_DIR when writable (default /dev/shm)
 */
class TempDirReporter {
  /**
   * @param {unknown} _globalConfig
   * @param {Options} [options] (tests only; jest passes the reporter's options from its config)
   */
  constructor(_globalConfig, options = {}) {
    this.env = options.env ?? process.env;
    this.tmpBase = options.tmpBase;
    this.shmBase = options.shmBase ?? '/dev/shm';
    /** @type {{ variable: string, dir: string }[]} */
    this.roots = [];
    /** @type {Error | undefined} */
    this.error = undefined;
  }

  onRunStart() {
    this.error = undefined;
    const tmp = fs.mkdtempSync(path.join(this.tmpBase ?? os.tmpdir(), 'svc-test-run-'));
    this.roots = [{ variable: 'TMPDIR', dir: tmp }];
    this.env.TMPDIR = tmp;
    // npm (npx) and tsc turn on Node's module compile cache, which it keeps under TMPDIR: the
    // tools the tests start (make run's build, the README's npx commands) would leave it here.
    this.env.NODE_DISABLE_COMPILE_CACHE = '1';
    if (writableDir(this.shmBase)) {
      const shm = fs.mkdtempSync(path.join(this.shmBase, 'svc-test-run-'));
      this.roots.push({ variable: 'SVC_TEST_SHM_DIR', dir: shm });
      this.env.SVC_TEST_SHM_DIR = shm;
    }
  }

  onRunComplete() {
    const found = [];
    for (const { variable, dir } of this.roots) {
      for (const entry of leftovers(dir)) found.push(`  ${path.join(dir, entry)}   (${variable})`);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    this.roots = [];
    if (found.length === 0) return;
    const message = `This test run left ${found.length} ${found.length === 1 ? 'entry' : 'entries'} in its temp directories (removed now); every test removes what it makes:\n${found.join('\n')}\n`;
    process.stderr.write(`\n${message}`);
    this.error = new Error(message);
  }

  getLastError() {
    return this.error;
  }
}

module.exports = TempDirReporter;
