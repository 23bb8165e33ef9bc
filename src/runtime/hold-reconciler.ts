import type { Logger } from 'pino';
import type { Ledger } from '../billing/types.js';

const SWEEP_INTERVAL_MS = 60_000;

/**
 * Releases holds a crash left behind: once at start-up, then periodically.
 * Returns the function that stops the periodic sweep.
 */
export async function startHoldReconciler(ledger: Ledger, logger: Logger): Promise<() => void> {
  const sweep = async () => {
    const released = await ledger.releaseExpired(new Date());
    if (released > 0) logger.info({ released }, 'released expired credit holds');
  };
  await sweep();
  const timer = setInterval(() => {
    sweep().catch((error: unknown) => logger.error({ err: error }, 'hold sweep failed'));
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
