import type { Logger } from 'pino';
import type { MeasuredEndpointFigures } from '../stats/measured-figures.js';
import { periodicTask, type BackgroundTask } from '../cluster/background.js';

/** How often closed minutes are stored and the fleet's recent minutes read back. */
export const FIGURES_SYNC_MS = 10_000;

/**
 * Keeps the measured figures in step with the database: the first round (before the instance
 * serves) loads the last seven days; each round stores this instance's closed minutes and reads
 * every instance's recent ones (and `stored` is told when there were any, for the fleet's signal);
 * stopping stores the minute in progress too, so a restart loses none.
 */
export function figuresSync(
  figures: Pick<MeasuredEndpointFigures, 'sync'>,
  options: { intervalMs?: number; logger: Pick<Logger, 'error'>; stored?: () => void },
): BackgroundTask {
  const round = async () => {
    if ((await figures.sync()) > 0) options.stored?.();
  };
  const task = periodicTask({ name: 'figures-sync', intervalMs: options.intervalMs ?? FIGURES_SYNC_MS, round, logger: options.logger });
  return {
    name: task.name,
    start: () => task.start(),
    async stop() {
      await task.stop();
      await figures.sync({ final: true });
    },
  };
}
