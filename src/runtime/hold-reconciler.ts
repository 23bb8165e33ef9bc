import type { Logger } from 'pino';
import type { Ledger } from '../billing/types.js';
import { periodicTask, type BackgroundTask } from '../cluster/background.js';

const SWEEP_INTERVAL_MS = 60_000;

/** Releases holds a crash left behind: once at start-up, then periodically. */
export function holdReconciler(ledger: Pick<Ledger, 'releaseExpired'>, logger: Pick<Logger, 'info' | 'error'>): BackgroundTask {
  return periodicTask({
    name: 'hold-reconciler',
    intervalMs: SWEEP_INTERVAL_MS,
    logger,
    async round() {
      const released = await ledger.releaseExpired(new Date());
      if (released > 0) logger.info({ released }, 'released expired credit holds');
    },
  });
}
