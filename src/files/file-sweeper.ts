import type { Logger } from 'pino';
import { periodicTask, type BackgroundTask } from '../cluster/background.js';
import type { FileService } from './file-service.js';
import type { KeyStore } from './key-store.js';

/**
 * How often the sweeper runs. Data keys live 49 hours (DATA_KEY_LIFETIME_MS), so with a round every
 * ten minutes each is destroyed within 50 hours of the write it sealed.
 */
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** Rows deleted per statement: a blob may hold hundreds of chunks, so a batch stays a short write. */
const FILE_BATCH = 20;
const KEY_BATCH = 500;

/** At most this many batches of each kind per round, so no round (the one at start included) runs long. */
const MAX_BATCHES = 100;

export interface SweepReport {
  keys: number;
  files: number;
  blobs: number;
}

/**
 * One sweep: data keys past their destroy time are destroyed (crypto-shredding what they sealed),
 * and expired file records and blobs are deleted, in small batches. Idempotent, and safe on every
 * instance at once: each batch deletes what is due and nothing else. Keys and files are swept
 * independently, so a key store that cannot be reached does not keep expired files, nor the other
 * way round; the first failure is thrown once both have run.
 */
export async function sweepExpired(files: Pick<FileService, 'sweep'>, keys: Pick<KeyStore, 'destroyExpired'>): Promise<SweepReport> {
  const report: SweepReport = { keys: 0, files: 0, blobs: 0 };
  const destroyKeys = async () => {
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const destroyed = await keys.destroyExpired(KEY_BATCH);
      report.keys += destroyed;
      if (destroyed < KEY_BATCH) return;
    }
  };
  const deleteFiles = async () => {
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const swept = await files.sweep(FILE_BATCH);
      report.files += swept.files;
      report.blobs += swept.blobs;
      if (swept.files < FILE_BATCH && swept.blobs < FILE_BATCH) return;
    }
  };
  const outcomes = await Promise.allSettled([destroyKeys(), deleteFiles()]);
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  return report;
}

/**
 * The sweeper as a background task of every instance: a round at start and every `intervalMs`.
 * A failed round is logged and never stops the instance from starting; the next round retries.
 */
export function fileSweeper(files: Pick<FileService, 'sweep'>, keys: Pick<KeyStore, 'destroyExpired'>, options: { logger: Pick<Logger, 'info' | 'error'>; intervalMs?: number }): BackgroundTask {
  const { logger } = options;
  return periodicTask({
    name: 'file-sweeper',
    intervalMs: options.intervalMs ?? SWEEP_INTERVAL_MS,
    logger,
    round: async () => {
      try {
        const report = await sweepExpired(files, keys);
        if (report.keys + report.files + report.blobs > 0) logger.info(report, 'expired data keys and files swept');
      } catch (error) {
        logger.error({ err: error }, 'expired data keys and files could not all be swept; the next round retries');
      }
    },
  });
}
