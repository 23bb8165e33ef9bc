import type { Logger } from 'pino';
import { CatalogueStore } from '../catalogue/catalogue-store.js';
import { resolveSettings } from '../settings/settings-table.js';
import { httpSettingsFrom } from '../http/services.js';
import type { CheckOutcome } from '../prober/prober.js';
import { transportSettingsFrom } from '../upstream/transport.js';
import { buildServices } from './build-services.js';
import { buildProber } from './capability-checks.js';
import { demoCatalogue, startDemoSimulator } from './gateway.js';
import { Rollback } from './rollback.js';
import { readEnvironmentSettings } from './settings-environment.js';
import { loadConfigFile, openDatabase } from './startup-steps.js';
import { openKeyStore } from '../files/database-key-store.js';
import { newKey } from '../files/sealing.js';

export interface ProbeOnceOptions {
  /** Catalogue YAML; without one the embedded demo's catalogue, answered by a simulator started here. */
  configPath?: string;
  databaseUrl: string;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs every capability check once against the catalogue (what `switchyard probe` does): the
 * verdicts go to the database, where running instances read them within a minute. Resolves with
 * each probe's outcome; what cannot start is a StartupError naming the option at fault.
 */
export async function probeOnce(options: ProbeOnceOptions): Promise<CheckOutcome[]> {
  const rollback = new Rollback();
  try {
    const file = options.configPath ? await loadConfigFile(options.configPath) : undefined;
    const settings = resolveSettings(file?.config.settings ?? {}, readEnvironmentSettings(options.env ?? process.env));
    const simulator = file ? undefined : await startDemoSimulator();
    if (simulator) rollback.push(() => simulator.close());
    const catalogue = new CatalogueStore(file?.config.catalogue ?? demoCatalogue(simulator?.url ?? ''));
    const store = await openDatabase(options.databaseUrl, settings['database.pool_size']);
    rollback.push(() => store.close());
    // probes store no file: their key store lives in memory, under a key made for this run
    const keyStore = await openKeyStore('sqlite::memory:', newKey());
    rollback.push(() => keyStore.close());
    const files = { keyStore, maxUploadBytes: settings['files.max_upload_bytes'] };
    const built = buildServices({ store, catalogue, logger: options.logger, settings: httpSettingsFrom(settings), upstream: transportSettingsFrom(settings), files });
    rollback.push(() => built.close());
    const prober = buildProber({ store, services: built.services, logger: options.logger });
    await prober.refresh();
    return await prober.run(catalogue.current(), { signal: new AbortController().signal });
  } finally {
    await rollback.run();
  }
}
