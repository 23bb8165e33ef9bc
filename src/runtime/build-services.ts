import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import { KeyCache } from '../accounts/key-cache.js';
import { createKeyDirectory } from '../accounts/key-directory.js';
import { createAbandonedGenerations } from '../billing/abandoned-generations.js';
import { createGenerationCheckpoints } from '../billing/generation-checkpoints.js';
import { createGenerationReader } from '../billing/generations.js';
import { createLedger } from '../billing/ledger.js';
import type { CatalogueSource } from '../catalogue/source.js';
import type { HttpSettings, Services } from '../http/services.js';
import { Executor } from '../inference/executor.js';
import { meteredLimiter } from '../ratelimit/metered-limiter.js';
import { SlidingWindowLimiter } from '../ratelimit/sliding-window.js';
import { RedisLimiter } from '../ratelimit/redis-limiter.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { Redis } from 'ioredis';
import { CheckVerdicts } from '../stats/check-verdicts.js';
import { MemoryEndpointHealth } from '../stats/endpoint-health.js';
import { LiveEndpointState } from '../stats/endpoint-state.js';
import { createFigureRows } from '../stats/figure-rows.js';
import { MeasuredEndpointFigures } from '../stats/measured-figures.js';
import { SessionAffinity } from '../stats/session-affinity.js';
import { MemoryOverrunCounter } from '../stats/overrun-counter.js';
import type { Store } from '../store/store.js';
import { Transport, type TransportSettings, type UpstreamTransport } from '../upstream/transport.js';
import type { BackgroundTask } from '../cluster/background.js';
import type { FleetSignals } from '../cluster/fleet-signals.js';
import { followFleet } from './fleet-caches.js';
import { figuresSync } from './figures-sync.js';
import { holdReconciler } from './hold-reconciler.js';
import { instanceHeartbeat } from '../cluster/instance-heartbeat.js';
import { InstanceRegistry, newInstanceIdentity, type InstanceIdentity } from '../cluster/instance-registry.js';
import { instanceReaper } from '../cluster/instance-reaper.js';
import { meteredLedger } from './metered-ledger.js';
import { SettlementRetries } from './settlement-retries.js';
import { GatewayMetrics } from './metrics.js';
import { catalogueCheck, databaseCheck, keyStoreCheck, readinessProbe, redisCheck } from './readiness.js';
import { DEFAULT_RECOVERY_SETTINGS, type RecoverySettings } from './recovery-settings.js';
import { createDatabaseBlobStore } from '../files/database-blob-store.js';
import { FileService } from '../files/file-service.js';
import { fileSweeper } from '../files/file-sweeper.js';
import type { KeyStore } from '../files/key-store.js';
import { BatchRunner } from '../batches/batch-runner.js';
import { BatchService } from '../batches/batch-service.js';

export interface ServiceInputs {
  store: Store;
  catalogue: CatalogueSource;
  logger: Logger;
  settings: HttpSettings;
  /** Default: keep-alive pools to every provider (closed by `close`), bounded by `upstream`. */
  transport?: UpstreamTransport & { close?(): Promise<void> };
  /** Timeouts and pool size of the default transport (default: DEFAULT_TRANSPORT_SETTINGS). */
  upstream?: TransportSettings;
  /** Heartbeat, reaping and checkpoint cadence (defaults: DEFAULT_RECOVERY_SETTINGS). */
  recovery?: Partial<RecoverySettings>;
  /** The measured figures' clock (default Date.now) and sync interval (default FIGURES_SYNC_MS). */
  figures?: FiguresOptions;
  /** Stored files: the key store holding their data keys, and the largest upload (`files.max_upload_bytes`). */
  files: { keyStore: KeyStore; maxUploadBytes: number };
  /** Redis (`--redis`): the rate limits shared by every instance. Without it each instance counts alone. */
  redis?: Redis;
}

/** A rate limiter whose limit a reload changes. */
type AdjustableLimiter = RateLimiter & { setLimit(limit: number): void };

/**
 * The request limits per key and per address: shared through Redis when there is one (each falling
 * back to its share of the limit while Redis is away), else counted in this process.
 */
function rateLimiters(redis: Redis | undefined, limits: HttpSettings['rateLimits'], instances: () => number, onFallback: (falling: boolean) => void): { perKey: AdjustableLimiter; perAddress: AdjustableLimiter } {
  if (!redis) return { perKey: new SlidingWindowLimiter(limits.perKeyPerMinute), perAddress: new SlidingWindowLimiter(limits.perAddressPerMinute) };
  // one notice for both limiters: they lose and regain Redis together
  let falling = false;
  const told = (now: boolean) => {
    if (now === falling) return;
    falling = now;
    onFallback(now);
  };
  return {
    perKey: new RedisLimiter(redis, { name: 'key', limit: limits.perKeyPerMinute, instances, onFallback: told }),
    perAddress: new RedisLimiter(redis, { name: 'address', limit: limits.perAddressPerMinute, instances, onFallback: told }),
  };
}

export interface FiguresOptions {
  now?: () => number;
  syncIntervalMs?: number;
}

export interface BuiltServices {
  services: Services;
  /** This process as the other instances on the database see it. */
  instance: InstanceIdentity;
  /** The background tasks these services need run. */
  tasks: BackgroundTask[];
  /** This instance's metrics, for what runs beside the requests (catalogue reloads). */
  metrics: GatewayMetrics;
  /** The signals to and from the other instances (catalogue reloads are told through them). */
  signals: FleetSignals;
  /** Aborts what is still in flight: requests end with the restart 503. */
  restart(): void;
  /** Stops the batch runner sending; resolves once its requests in flight ended (or were cut by the restart). */
  stopBatches(): Promise<void>;
  /** New request rates per key and per address, from the next request on (a reload's live settings). */
  setRateLimits(limits: HttpSettings['rateLimits']): void;
  /** Lets go of what the services hold open (upstream connections). */
  close(): Promise<void>;
}

/** Builds every service once, from the store, the catalogue and the settings. */
export function buildServices(inputs: ServiceInputs): BuiltServices {
  const { store, settings, logger } = inputs;
  const transport = inputs.transport ?? new Transport(inputs.upstream);
  const recovery = { ...DEFAULT_RECOVERY_SETTINGS, ...inputs.recovery };
  const registry = new InstanceRegistry(store, newInstanceIdentity());
  const figures = new MeasuredEndpointFigures({
    ...(inputs.figures?.now && { now: inputs.figures.now }),
    storage: { rows: createFigureRows(store), instanceId: registry.identity.id },
  });
  const state = new LiveEndpointState(new MemoryEndpointHealth(), new CheckVerdicts(), new SessionAffinity(), figures);
  // SQLite is served by one process, whose holds are its own: kept in memory (see process-holds.ts)
  const ledger = createLedger(store, { instanceId: registry.identity.id, holdsInProcess: store.engine === 'sqlite' });
  const retries = new SettlementRetries(logger);
  const overruns = new MemoryOverrunCounter();
  const metrics = new GatewayMetrics(overruns);
  const restart = new AbortController();
  const fleet = followFleet({ store, redis: inputs.redis, instanceId: registry.identity.id, logger, metrics, figures });
  let liveInstances = 1;
  const limiters = rateLimiters(inputs.redis, settings.rateLimits, () => liveInstances, (falling) => {
    metrics.rateLimitFallback(falling);
    if (falling) logger.warn({ instances: liveInstances }, 'Redis cannot be reached: each rate limit is enforced per instance, at its share (limit ÷ live instances), until it is back');
    else logger.info('Redis is back: rate limits are shared by every instance again');
  });
  // the requests in flight share one listener on the restart (see attemptSignal); others, such as the
  // batch runner's, may add their own: no listener limit
  setMaxListeners(0, restart.signal);
  const files = new FileService({ store, blobs: createDatabaseBlobStore(store), keys: inputs.files.keyStore, maxUploadBytes: inputs.files.maxUploadBytes });
  let batchRunner: BatchRunner | undefined;
  const batches = new BatchService({ store, files, keys: inputs.files.keyStore, onSubmitted: () => batchRunner?.wake() });
  const services: Services = {
    catalogue: inputs.catalogue,
    keys: createKeyDirectory(store, { cache: new KeyCache(), revision: fleet.keyRevision }),
    ledger: meteredLedger(retries.wrap(ledger), metrics),
    checkpoints: createGenerationCheckpoints(store, { cadence: recovery.checkpoint, logger, instanceId: registry.identity.id }),
    generations: createGenerationReader(store),
    executor: new Executor(transport, state.health),
    state,
    samples: figures,
    overruns,
    logger,
    limiters: {
      perKey: meteredLimiter(limiters.perKey, () => metrics.rateLimited('key')),
      perAddress: meteredLimiter(limiters.perAddress, () => metrics.rateLimited('address')),
    },
    metrics,
    readiness: readinessProbe([
      databaseCheck(store), keyStoreCheck(inputs.files.keyStore), catalogueCheck(inputs.catalogue), ...(inputs.redis ? [redisCheck(inputs.redis)] : []),
    ]),
    settings,
    restart: restart.signal,
    store,
    files,
    storedFiles: files,
    batches,
  };
  batchRunner = new BatchRunner(
    { store, pipeline: services, keys: services.keys, dataKeys: inputs.files.keyStore, files, logger, restart: restart.signal, now: Date.now, holder: registry.identity.id },
    {
      leaseMs: recovery.batchLeaseMs,
      pollMs: recovery.batchPollMs,
      onTakeover: (accountId) => {
        metrics.leaseTakenOver();
        logger.info({ account: accountId }, 'took over the batches of an account whose lease had run out');
      },
    },
  );
  metrics.dependencyHealth(services.readiness);
  const abandoned = createAbandonedGenerations({ store, ledger, catalogue: inputs.catalogue });
  return {
    services,
    instance: registry.identity,
    metrics,
    signals: fleet.signals,
    // signals heard before anything is served; registered before anything is admitted; gone
    // instances settled before the expired-hold sweep
    tasks: [
      ...fleet.tasks,
      instanceHeartbeat(registry, {
        intervalMs: recovery.heartbeatMs, staleAfterMs: recovery.staleAfterMs, logger, onLive: (instances) => {
          liveInstances = instances;
          metrics.liveInstances(instances);
        },
      }),
      instanceReaper(registry, abandoned, { intervalMs: recovery.reapIntervalMs, staleAfterMs: recovery.staleAfterMs, logger }),
      holdReconciler(ledger, logger),
      retries,
      figuresSync(figures, {
        logger,
        stored: () => fleet.signals.publish('figures'),
        ...(inputs.figures?.syncIntervalMs !== undefined && { intervalMs: inputs.figures.syncIntervalMs }),
      }),
      fileSweeper(files, inputs.files.keyStore, { logger }),
      batchRunner,
    ],
    restart: () => restart.abort(),
    stopBatches: () => batchRunner.stop(),
    setRateLimits: (limits) => {
      limiters.perKey.setLimit(limits.perKeyPerMinute);
      limiters.perAddress.setLimit(limits.perAddressPerMinute);
      settings.rateLimits = limits;
    },
    close: async () => {
      await transport.close?.();
    },
  };
}
