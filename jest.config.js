// Two projects: fast unit tests beside the code, and e2e tests that start etcd and the real processes.
const transform = { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, target: 'es2022', transform: { legacyDecorator: true, decoratorMetadata: true } }, module: { type: 'commonjs' } }] };
// The CEL library is ESM-only (DESIGN.md §2b): jest transforms it to CommonJS like our sources.
const esm = { transform: { ...transform, '^.+\\.js$': transform['^.+\\.ts$'] }, transformIgnorePatterns: ['/node_modules/(?!@marcbachmann/cel-js/)'] };
module.exports = {
  // Global (jest ignores it per project): e2e tests start processes; unit tests finish far below it.
  testTimeout: 60000,
  // Each run's temp directories are its own, and a run that leaves anything in them fails.
  reporters: ['default', '<rootDir>/test/support/tempDirReporter.js'],
  projects: [
    { displayName: 'unit', testEnvironment: 'node', ...esm, roots: ['<rootDir>/lib', '<rootDir>/cmd', '<rootDir>/deploy', '<rootDir>/test/support'], testMatch: ['**/*.test.ts'] },
    { displayName: 'e2e', testEnvironment: 'node', ...esm, roots: ['<rootDir>/test/e2e'], testMatch: ['**/*.test.ts'] },
    // The compose topology as local hosts (make cluster), Prometheus and faults across them (make test-cluster).
    { displayName: 'cluster', testEnvironment: 'node', ...esm, roots: ['<rootDir>/test/cluster'], testMatch: ['**/*.test.ts'] },
    // deploy/docker-compose.yml for real on a private Docker engine (make test-compose), where one can start.
    { displayName: 'compose', testEnvironment: 'node', ...esm, roots: ['<rootDir>/test/compose'], testMatch: ['**/*.test.ts'] },
  ],
};
