import type { Logger } from 'pino';
import type { AbandonedGenerations } from '../billing/abandoned-generations.js';
import { periodicTask, type BackgroundTask } from './background.js';
import type { InstanceRegistry } from './instance-registry.js';

/**
 * Settles what gone instances left pending, at start-up (a restart settles its predecessor's
 * generations before it serves) and then every `intervalMs`, so their holds are released within
 * seconds of their death being known rather than when the holds expire. A gone instance's row is
 * deleted once its generations are settled; one that could not be settled is tried again next round.
 */
export function instanceReaper(
  registry: InstanceRegistry,
  abandoned: AbandonedGenerations,
  options: { intervalMs: number; staleAfterMs: number; logger: Pick<Logger, 'info' | 'error'> },
): BackgroundTask {
  return periodicTask({
    name: 'instance-reaper',
    intervalMs: options.intervalMs,
    logger: options.logger,
    async round() {
      for (const instance of await registry.gone(options.staleAfterMs)) {
        try {
          const settled = await abandoned.settle(instance);
          await registry.forget(instance);
          options.logger.info({ instance, settled }, 'settled the generations of a gone instance');
        } catch (error) {
          // kept for the next round; the other gone instances are settled meanwhile
          options.logger.error({ err: error, instance }, 'could not settle the generations of a gone instance');
        }
      }
    },
  });
}
