// @ts-check
// The closing line of a test run, for both groups `make test` runs: the main run (etcd ≥ 3.5,
// .jest-results.json) and the etcd 3.4.23 group (.jest-results-etcd34.json), from jest's --json
// results. Prints one "(… counted …)" line per group, then "N passed, N failed[, N skipped]".
// Exits 1 when a group's results are missing, when nothing ran or when anything failed.
// Usage: node scripts/test-summary.js [DIR]   (DIR: where the results are, the repo by default)
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const dir = process.argv[2] ?? path.join(__dirname, '..');
const files = ['.jest-results.json', '.jest-results-etcd34.json'];

// Without the main group's results `make test` stopped before jest ran at all.
if (!fs.existsSync(path.join(dir, files[0]))) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
let passed = 0;
let failed = 0;
let skipped = 0;
let total = 0;
for (const f of files) {
  const file = path.join(dir, f);
  if (!fs.existsSync(file)) {
    console.log(`${f} is missing: that group did not run`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  console.log(`(${f} counted ${r.numPassedTests} passing and ${r.numFailedTests} failing tests)`);
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + r.numTodoTests;
  total += r.numTotalTests;
}
console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ''));
if (total === 0 || failed > 0) process.exit(1);
