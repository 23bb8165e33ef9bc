import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // test files share their worker's loaded modules: loading the sources again for each of 260
    // files cost more than half the suite's time; every file builds its own gateways, stores and
    // servers, so nothing a test relies on is left over from another
    isolate: false,
    // the test processes load TypeScript sources the way spawned children do, so a worker thread
    // started from the sources (the catalogue reader) finds its entry
    execArgv: ['--import', './test/support/typescript-child/register.mjs'],
    reporters: ['default', './test/support/engine-count-reporter.ts'],
  },
});
