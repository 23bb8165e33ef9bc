import { afterEach, describe, expect, it } from 'vitest';
import { warnWithoutAutovacuum } from '../../../src/runtime/startup-steps.js';
import type { Store } from '../../../src/store/store.js';
import { STORE_ENGINES } from '../../support/store-engines.js';

const opened: Store[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

function recordingLogger(): { warnings: string[]; warn(message: string): void } {
  const warnings: string[] = [];
  return { warnings, warn: (message: string) => void warnings.push(message) };
}

/** A PostgreSQL store whose server answers `autovacuum` with `answer` (or fails to). */
function postgresAnswering(answer: string | Error): Store {
  const executeQuery = async () => {
    if (answer instanceof Error) throw answer;
    return { rows: [{ autovacuum: answer }] };
  };
  return { engine: 'postgres', db: { executeQuery } } as unknown as Store;
}

describe('the start-up warning about autovacuum', () => {
  it('warns when PostgreSQL runs with autovacuum off, naming the setting; not when it is on, nor when it cannot be read', async () => {
    const off = recordingLogger();
    await warnWithoutAutovacuum(postgresAnswering('off'), off);
    expect(off.warnings).toHaveLength(1);
    expect(off.warnings[0]).toMatch(/autovacuum off/);
    const on = recordingLogger();
    await warnWithoutAutovacuum(postgresAnswering('on'), on);
    expect(on.warnings).toEqual([]);
    const unreadable = recordingLogger();
    await warnWithoutAutovacuum(postgresAnswering(new Error('permission denied')), unreadable);
    expect(unreadable.warnings).toEqual([]);
  });

  it.each(STORE_ENGINES)('reads the real setting on $name (SQLite has none to warn of)', async (engine) => {
    const store = await engine.open();
    opened.push(store);
    const logger = recordingLogger();
    await warnWithoutAutovacuum(store, logger);
    if (engine.name === 'sqlite') {
      expect(logger.warnings).toEqual([]);
      return;
    }
    const rows = await store.db.selectNoFrom((eb) => eb.fn<string>('current_setting', [eb.val('autovacuum')]).as('autovacuum')).execute();
    expect(logger.warnings).toHaveLength(rows[0]?.autovacuum === 'off' ? 1 : 0);
  });
});
