const os = require('node:os');

/**
 * One jest run for the whole monorepo: unit specs sit beside the code (src/**\/*.spec.ts), integration
 * and e2e tests under each workspace's test/ folder. Global setup (packages/testing) makes sure
 * Postgres and Redis answer and starts the Kafka wire-protocol test broker once for the run.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
// The bench's scripts are plain ES modules (.mjs); their specs load them through the same transform.
const swcModule = ['@swc/jest', { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } }];
const shared = {
  transform: { '^.+\\.ts$': swc, '^.+\\.mjs$': swcModule },
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
};
const workspaceDirs = {
  '^@unigate/billing/reservations$': '<rootDir>/apps/billing/src/reservations',
  '^@unigate/catalog/lookup$': '<rootDir>/apps/catalog/src/lookup',
  '^@unigate/video/embedded$': '<rootDir>/apps/video/src/embedded',
  '^@unigate/platform/database$': '<rootDir>/packages/platform/src/database',
  '^@unigate/platform/embedded-postgres$': '<rootDir>/packages/platform/src/database/embedded-postgres',
  '^@unigate/platform/distributed$': '<rootDir>/packages/platform/src/distributed',
  '^@unigate/(contracts|proto|providers|platform|testing)$': '<rootDir>/packages/$1/src',
  '^@unigate/(edge|chat|billing|catalog|media|video|upstream-sim|standalone)$': '<rootDir>/apps/$1/src',
};

module.exports = {
  globalSetup: '<rootDir>/packages/testing/jest/global-setup.js',
  globalTeardown: '<rootDir>/packages/testing/jest/global-teardown.js',
  testTimeout: 60000,
  // Jest's default (cores - 1) runs a 2-core machine's suites one at a time, in its own process. Most
  // suites spend their time waiting on the processes they start, the network and the test broker's
  // group joins, and every suite keeps to its own databases, key prefixes, topics and ports
  // (@unigate/testing), so two run at once: measured on 2 cores, 669 s against 1,015-1,049 s.
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  // One leaked timer keeps a green run from ever exiting (CI then times out). Exit when the run is
  // done; to find a leak, run `npx jest --detectOpenHandles <suite>`.
  forceExit: true,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      rootDir: __dirname,
      moduleNameMapper: workspaceDirs,
      testMatch: ['<rootDir>/{apps,packages}/*/src/**/*.spec.ts', '<rootDir>/scripts/bench/*.spec.ts'],
    },
    {
      ...shared,
      displayName: 'integration',
      rootDir: __dirname,
      moduleNameMapper: workspaceDirs,
      testMatch: ['<rootDir>/{apps,packages}/*/test/**/*.test.ts', '<rootDir>/deploy/test/**/*.test.ts'],
    },
  ],
};
