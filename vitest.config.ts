import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // the test processes load TypeScript sources the way spawned children do, so a worker thread
    // started from the sources (the catalogue reader) finds its entry
    execArgv: ['--import', './test/support/typescript-child/register.mjs'],
    reporters: ['default', './test/support/engine-count-reporter.ts'],
  },
});
