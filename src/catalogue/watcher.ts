import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { CatalogueStore } from './catalogue-store.js';
import { catalogueCounts } from './index-builder.js';
import { parseCatalogueText } from './loader.js';
import { formatProblem } from './problem-list.js';

/** Where reload outcomes go (a pino logger fits). */
export interface CatalogueLog {
  info(message: string): void;
  error(message: string): void;
}

/** How a reload ended: applied, refused for its problems, or the file could not be read. */
export type ReloadOutcome = 'applied' | 'refused' | 'unreadable';

export interface WatchOptions {
  /** Quiet time after the last change before reloading; editors write in several steps. */
  debounceMs?: number;
  /** Told how each reload of a changed file ended (the metrics count them). */
  onReload?: (outcome: ReloadOutcome) => void;
}

/**
 * Reloads the catalogue file into `store` whenever it changes. The directory is watched, not the
 * file, so editors that write a new file and rename it over the old one are followed. A file with
 * problems leaves the previous catalogue in place and every problem is logged.
 * Returns the function that stops watching.
 */
export function watchCatalogue(path: string, store: CatalogueStore, log: CatalogueLog, options: WatchOptions = {}): () => void {
  const file = resolve(path);
  const name = basename(file);
  const debounceMs = options.debounceMs ?? 100;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = false;
  let lastText: string | undefined;

  const reload = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      lastText = await reloadOnce({ file: path, store, log, lastText, isStopped: () => stopped, onReload: options.onReload });
    } finally {
      running = false;
      if (again && !stopped) {
        again = false;
        schedule();
      }
    }
  };
  const schedule = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), debounceMs);
  };

  const watcher = watch(dirname(file), (_event, changed) => {
    if (changed === null || changed === name) schedule();
  });
  watcher.on('error', (error) => log.error(`catalogue watch on ${path} failed: ${error.message}`));
  return () => {
    stopped = true;
    clearTimeout(timer);
    watcher.close();
  };
}

interface ReloadStep {
  file: string;
  store: CatalogueStore;
  log: CatalogueLog;
  lastText: string | undefined;
  isStopped: () => boolean;
  onReload: WatchOptions['onReload'];
}

/** One reload attempt; returns the text now considered seen. */
async function reloadOnce(step: ReloadStep): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(step.file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    step.log.error(`catalogue ${step.file} cannot be read (${code}); keeping the previous catalogue`);
    step.onReload?.('unreadable');
    return step.lastText;
  }
  if (text === step.lastText || step.isStopped()) return step.lastText;
  const result = parseCatalogueText(text, step.file);
  if (step.isStopped()) return step.lastText;
  if (!result.ok) {
    step.log.error(`catalogue ${step.file} has ${result.problems.length} problem(s); keeping the previous catalogue`);
    for (const problem of result.problems) step.log.error(formatProblem(problem));
    step.onReload?.('refused');
    return text;
  }
  step.store.replace(result.catalogue);
  const counts = catalogueCounts(result.catalogue);
  step.log.info(`catalogue reloaded from ${step.file}: ${counts.providers} providers, ${counts.models} models, ${counts.endpoints} endpoints`);
  step.onReload?.('applied');
  return text;
}
