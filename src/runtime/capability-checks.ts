import type { Logger } from 'pino';
import type { Settings } from '../settings/settings-table.js';
import type { CatalogueSource } from '../catalogue/source.js';
import type { InferenceServices } from '../inference/services.js';
import { operatorLedger } from '../billing/operator-ledger.js';
import type { AttemptCounter } from '../prober/probe-observer.js';
import { Prober } from '../prober/prober.js';
import { createVerdictStore } from '../prober/verdict-store.js';
import type { Store } from '../store/store.js';
import { periodicTask, type BackgroundTask } from '../cluster/background.js';

/** How often an instance reads the verdicts other instances (or `switchyard probe`) stored. */
export const VERDICT_REFRESH_MS = 60_000;

/** The prober of an instance: the request pipeline with the operator's ledger in it. */
export function buildProber(inputs: {
  store: Store;
  services: InferenceServices;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  attempts?: AttemptCounter;
}): Prober {
  const { store, services, logger } = inputs;
  return new Prober({
    services: { ...services, ledger: operatorLedger(store), ...(inputs.attempts && { attempts: inputs.attempts }) },
    verdicts: services.state.verdicts,
    store: createVerdictStore(store),
    logger,
  });
}

export interface ProberSettings {
  enabled: boolean;
  intervalMinutes: number;
}

export function proberSettingsFrom(settings: Pick<Settings, 'prober.enabled' | 'prober.interval_minutes'>): ProberSettings {
  return { enabled: settings['prober.enabled'], intervalMinutes: settings['prober.interval_minutes'] };
}

/**
 * The verdicts and the checks as background work: the stored verdicts are read at start (so they
 * survive restarts) and then every minute (so a fleet, and `switchyard probe`, share them); with
 * the prober enabled, every `intervalMinutes` the checks that are due run (those whose latest
 * verdict, from any instance, is older than the interval, or of another serving revision or probe
 * version). The first round runs one interval after start: what was checked before is read back,
 * and `switchyard probe` checks at once. Stopping it (when the instance drains) aborts the probes
 * in flight and waits for the round to end.
 */
export function capabilityCheckTasks(prober: Prober, inputs: {
  catalogue: CatalogueSource;
  settings: ProberSettings;
  logger: Pick<Logger, 'info' | 'error'>;
}): BackgroundTask[] {
  const { catalogue, settings, logger } = inputs;
  const verdicts = periodicTask({ name: 'capability check verdicts', intervalMs: VERDICT_REFRESH_MS, round: () => prober.refresh(), logger });
  if (!settings.enabled) return [verdicts];
  const intervalMs = settings.intervalMinutes * 60_000;
  let stopping = new AbortController();
  const probing = periodicTask({
    name: 'prober',
    intervalMs,
    firstRoundAtStart: false,
    logger,
    round: async () => {
      const outcomes = await prober.run(catalogue.current(), { dueAfterMs: intervalMs, signal: stopping.signal });
      const failed = outcomes.filter((outcome) => outcome.verdict?.passed === false).length;
      if (outcomes.length > 0) logger.info({ checks: outcomes.length, failed }, 'capability checks ran');
    },
  });
  return [verdicts, {
    name: probing.name,
    start: () => {
      stopping = new AbortController();
      return probing.start();
    },
    stop: async () => {
      stopping.abort();
      await probing.stop();
    },
  }];
}
