import type { Logger } from 'pino';
import type { CatalogueStore } from '../catalogue/catalogue-store.js';
import { ConfigReloader, type FileReading, type ReloadTrigger } from '../catalogue/config-reloader.js';
import { catalogueCounts } from '../catalogue/index-builder.js';
import type { RenderedListing } from '../catalogue/listing/listing-snapshot.js';
import type { Catalogue } from '../catalogue/types.js';
import type { CatalogueReader } from '../catalogue/worker-catalogue-reader.js';
import { missingCredentials } from '../catalogue/missing-credentials.js';
import { changedSettings, SETTING_TABLE, type Settings, type SettingsPatch } from '../settings/settings-table.js';
import { watchDirectoryOf } from '../catalogue/watcher.js';
import { logReload, type ReloadReport } from './reload-log.js';

/** What a reload changes in the running gateway. */
export interface ReloadTargets {
  catalogue: CatalogueStore;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** The settings in effect once the file's block is combined with the environment's. */
  resolve(file: SettingsPatch): Settings;
  /** Puts the settings a reload may change (SETTING_TABLE's `live` ones) into effect. */
  applyLive(settings: Settings): void;
  /**
   * Builds what reads of `next` need (the listing, from the text the reader `rendered` when it
   * did) before it is swapped in, in slices between requests, so the first request after a reload
   * finds it ready.
   */
  prepare?(next: Catalogue, rendered?: RenderedListing): Promise<void>;
  /** Told how each reload ended, once it is logged (the metrics count them). */
  observe?(report: ReloadReport): void;
}

export interface ConfigReload {
  /** Reads the config file again (SIGHUP; the watcher's changes); resolves once it is logged. */
  reload(trigger: ReloadTrigger): Promise<void>;
  stop(): void;
}

export interface ConfigReloadOptions {
  /** The config file, or none (the embedded demo, which has nothing to reload). */
  file?: string;
  /** The text the running configuration was read from. */
  initialText?: string;
  /** The settings in effect now. */
  settings: Settings;
  /** Follow changes of the file (default true). */
  watch?: boolean;
  debounceMs?: number;
  /** How the file's text is parsed and validated (default: in a worker thread). */
  parse?: CatalogueReader;
}

/**
 * The one place the configuration is reloaded, whether the file changed or the operator sent
 * SIGHUP: a valid file replaces the catalogue and applies the live settings (others are logged as
 * taking effect at restart); an invalid or unreadable one leaves everything as it was.
 */
export function startConfigReload(options: ConfigReloadOptions, targets: ReloadTargets): ConfigReload {
  const { file } = options;
  if (file === undefined) {
    return {
      reload: (trigger) => {
        const report: ReloadReport = { outcome: 'nothing to reload', trigger };
        logReload(targets.logger, report);
        targets.observe?.(report);
        return Promise.resolve();
      },
      stop: () => undefined,
    };
  }
  // the settings in effect: the live ones as last reloaded, the others as the server started
  let inEffect = options.settings;
  const receive = async (reading: FileReading): Promise<void> => {
    if (reading.kind === 'valid') await targets.prepare?.(reading.config.catalogue, reading.config.rendered);
    const applied = applyReading(reading, inEffect, targets);
    inEffect = applied.inEffect;
    logReload(targets.logger, applied.report);
    targets.observe?.(applied.report);
  };
  const reloader = new ConfigReloader(file, receive, {
    ...(options.initialText !== undefined && { initialText: options.initialText }),
    ...(options.parse && { parse: options.parse }),
  });
  const stopWatching = options.watch === false
    ? () => undefined
    : watchDirectoryOf(file, () => void reloader.reload('file change'), {
      ...(options.debounceMs !== undefined && { debounceMs: options.debounceMs }),
      onError: (error) => targets.logger.error(`catalogue watch on ${file} failed: ${error.message}`),
    });
  return {
    reload: (trigger) => reloader.reload(trigger),
    stop: () => {
      reloader.stop();
      stopWatching();
    },
  };
}

function applyReading(reading: FileReading, current: Settings, targets: ReloadTargets): { report: ReloadReport; inEffect: Settings } {
  const { file, trigger } = reading;
  if (reading.kind === 'invalid') return { report: { outcome: 'refused', file, trigger, problems: reading.problems }, inEffect: current };
  if (reading.kind === 'unreadable') return { report: { outcome: 'unreadable', file, trigger, cause: reading.cause }, inEffect: current };
  const { catalogue, settings: written } = reading.config;
  const next = targets.resolve(written);
  const changed = changedSettings(current, next);
  const applied = changed.filter((name) => SETTING_TABLE[name].live);
  const inEffect = { ...current, ...Object.fromEntries(applied.map((name) => [name, next[name]])) };
  targets.catalogue.replace(catalogue);
  targets.applyLive(inEffect);
  return {
    report: {
      outcome: 'reloaded',
      file,
      trigger,
      counts: catalogueCounts(catalogue),
      applied,
      atRestart: changed.filter((name) => !SETTING_TABLE[name].live),
      missingCredentials: missingCredentials(catalogue, targets.env),
    },
    inEffect,
  };
}
