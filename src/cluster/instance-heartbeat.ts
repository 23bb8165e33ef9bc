import type { Logger } from 'pino';
import { periodicTask, type BackgroundTask } from './background.js';
import type { InstanceRegistry } from './instance-registry.js';

/**
 * Registers this instance at start, writes its heartbeat every `intervalMs` (and tells `onLive` how
 * many instances are alive, for the share of a rate limit each enforces while Redis is away), and
 * deletes its row when it stops (after its requests drained): whatever it left pending is then
 * settled by the next instance to look.
 */
export function instanceHeartbeat(
  registry: InstanceRegistry,
  options: { intervalMs: number; staleAfterMs: number; logger: Pick<Logger, 'warn' | 'error'>; onLive?: (instances: number) => void },
): BackgroundTask {
  const beats = periodicTask({
    name: 'instance-heartbeat',
    intervalMs: options.intervalMs,
    logger: options.logger,
    async round() {
      if (!(await registry.beat())) {
        options.logger.warn({ instance: registry.identity.id }, 'this instance had been taken for dead; its heartbeat is written again');
      }
      options.onLive?.(await registry.live(options.staleAfterMs));
    },
  });
  return {
    name: 'instance-heartbeat',
    async start() {
      await registry.register();
      await beats.start();
    },
    async stop() {
      await beats.stop();
      await registry.forget();
    },
  };
}
