import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints, after the run, how many tests passed on each store engine (tests parameterised over the
 * engines carry its name: `… on 'sqlite'`, `… on 'postgres'`) and on a fleet (test/fleet/, and
 * the suites run `… on 'fleet'`), so a run that quietly lost its PostgreSQL or fleet tests shows it.
 */
export default class EngineCountReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const passed = { sqlite: 0, postgres: 0, fleet: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests('passed')) {
        if (module.moduleId.includes('/test/fleet/') || /'fleet'/.test(test.fullName)) passed.fleet += 1;
        else if (/'postgres'|\bpostgres\b/i.test(test.fullName)) passed.postgres += 1;
        else if (/'sqlite'|\bsqlite\b/i.test(test.fullName)) passed.sqlite += 1;
      }
    }
    console.log(`store engines: ${passed.sqlite} tests passed on SQLite, ${passed.postgres} on PostgreSQL, ${passed.fleet} on a fleet of instances`);
  }
}
