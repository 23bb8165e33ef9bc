import type { Logger } from 'pino';

/** Work an instance does beside its requests: the hold reconciler now; the prober, batch runner and sweepers later. */
export interface BackgroundTask {
  name: string;
  /** Starts the task; resolves once its first round (if any) is done. */
  start(): Promise<void>;
  /** Stops it; resolves once nothing of it runs any more. */
  stop(): Promise<void>;
}

/** Runs tasks for the life of the instance: started in order, stopped in reverse when it drains. */
export class BackgroundTasks {
  readonly #running: BackgroundTask[] = [];

  constructor(private readonly logger: Pick<Logger, 'info' | 'error'>) {}

  async start(tasks: readonly BackgroundTask[]): Promise<void> {
    for (const task of tasks) {
      await task.start();
      this.#running.push(task);
      this.logger.info({ task: task.name }, 'background task started');
    }
  }

  async stop(): Promise<void> {
    for (const task of this.#running.splice(0).reverse()) {
      try {
        await task.stop();
      } catch (error) {
        this.logger.error({ err: error, task: task.name }, 'background task did not stop cleanly');
      }
    }
  }
}

/**
 * A task that runs `round` once at start (unless `firstRoundAtStart` is false: then only after the
 * first interval) and then every `intervalMs`, one round at a time; a failed round is logged and
 * the next one runs as planned.
 */
export function periodicTask(options: {
  name: string;
  intervalMs: number;
  round: () => Promise<void>;
  logger: Pick<Logger, 'error'>;
  firstRoundAtStart?: boolean;
}): BackgroundTask {
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const run = () => {
    current = options.round().catch((error: unknown) => options.logger.error({ err: error, task: options.name }, 'background round failed'));
    return current;
  };
  return {
    name: options.name,
    async start() {
      if (options.firstRoundAtStart !== false) await options.round();
      timer = setInterval(() => {
        void current.then(run);
      }, options.intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
