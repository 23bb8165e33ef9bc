import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import { KeyCache } from '../accounts/key-cache.js';
import { createKeyDirectory } from '../accounts/key-directory.js';
import { createGenerationReader } from '../billing/generations.js';
import { createLedger } from '../billing/ledger.js';
import type { CatalogueSource } from '../catalogue/source.js';
import type { HttpSettings, Services } from '../http/services.js';
import { Executor } from '../inference/executor.js';
import { SlidingWindowLimiter } from '../ratelimit/sliding-window.js';
import { LiveEndpointState } from '../stats/endpoint-state.js';
import { MemoryOverrunCounter } from '../stats/overrun-counter.js';
import type { Store } from '../store/store.js';
import { Transport, type UpstreamTransport } from '../upstream/transport.js';
import type { BackgroundTask } from './background.js';
import { holdReconciler } from './hold-reconciler.js';

export interface ServiceInputs {
  store: Store;
  catalogue: CatalogueSource;
  logger: Logger;
  settings: HttpSettings;
  /** Default: keep-alive pools to every provider (closed by `close`). */
  transport?: UpstreamTransport & { close?(): Promise<void> };
}

export interface BuiltServices {
  services: Services;
  /** The background tasks these services need run. */
  tasks: BackgroundTask[];
  /** Aborts what is still in flight: requests end with the restart 503. */
  restart(): void;
  /** Lets go of what the services hold open (upstream connections). */
  close(): Promise<void>;
}

/** Builds every service once, from the store, the catalogue and the settings. */
export function buildServices(inputs: ServiceInputs): BuiltServices {
  const { store, settings, logger } = inputs;
  const transport = inputs.transport ?? new Transport();
  const state = new LiveEndpointState();
  const ledger = createLedger(store);
  const restart = new AbortController();
  // every request in flight listens for the restart (and lets go when it ends): no listener limit
  setMaxListeners(0, restart.signal);
  const services: Services = {
    catalogue: inputs.catalogue,
    keys: createKeyDirectory(store, { cache: new KeyCache() }),
    ledger,
    generations: createGenerationReader(store),
    executor: new Executor(transport, state.health),
    state,
    overruns: new MemoryOverrunCounter(),
    logger,
    limiters: {
      perKey: new SlidingWindowLimiter(settings.rateLimits.perKeyPerMinute),
      perAddress: new SlidingWindowLimiter(settings.rateLimits.perAddressPerMinute),
    },
    settings,
    restart: restart.signal,
  };
  return {
    services,
    tasks: [holdReconciler(ledger, logger)],
    restart: () => restart.abort(),
    close: async () => {
      await transport.close?.();
    },
  };
}
