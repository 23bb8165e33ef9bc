import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { KeyRevisionWatch, keyRevisionReader, sqliteKeyRevision, type KeyRevisionReader } from '../accounts/key-revision.js';
import { periodicTask, type BackgroundTask } from '../cluster/background.js';
import { NO_SIGNALS, redisSignals, type FleetSignal, type FleetSignals } from '../cluster/fleet-signals.js';
import { postgresSignals } from '../cluster/postgres-signals.js';
import type { MeasuredEndpointFigures } from '../stats/measured-figures.js';
import type { Store } from '../store/store.js';
import type { GatewayMetrics } from './metrics.js';

/** How often the key revision is read while signals are heard: the net for changes no signal tells (within a second). */
export const KEY_REVISION_POLL_MS = 500;

export interface FleetCaches {
  /** The signals to and from the other instances (none without Redis). */
  signals: FleetSignals;
  /** The key revision the key cache follows. */
  keyRevision: KeyRevisionReader;
  tasks: BackgroundTask[];
}

/**
 * How this instance's copies follow changes made by others. Without Redis, on SQLite, the key cache
 * reads the key revision again once this process changed keys or another connection committed
 * (`sqliteKeyRevision`: the admin CLI's changes within 10 ms). Otherwise the instances tell each
 * other through Redis, or without it through PostgreSQL's notices: a key change committed here is
 * told (on PostgreSQL by the committing transaction itself, whichever process commits it); the
 * others drop their caches when they hear it, read the revision only then (and twice a second, for
 * what no signal told), and go back to a reading per turn whenever they stop hearing signals.
 * Stored figures are signalled too, so the others read the fleet's minutes at once.
 */
export function followFleet(inputs: {
  store: Store;
  redis: Redis | undefined;
  instanceId: string;
  logger: Logger;
  metrics: GatewayMetrics;
  figures: Pick<MeasuredEndpointFigures, 'refresh'>;
}): FleetCaches {
  const { store, redis, logger, metrics } = inputs;
  if (!redis && store.sqlite) return { signals: NO_SIGNALS, keyRevision: sqliteKeyRevision(store, store.sqlite), tasks: [] };
  const perTurn = keyRevisionReader(store);
  const options = { instanceId: inputs.instanceId, logger, heard: (signal: FleetSignal, delayMs: number) => metrics.signalHeard(signal, delayMs) };
  const signals = redis ? redisSignals(redis, options) : postgresSignals(store, options);
  const watch = new KeyRevisionWatch(perTurn, () => signals.listening);
  store.committed.on('keys', () => {
    watch.moved();
    signals.publish('keys');
  });
  signals.on('keys', () => watch.moved());
  signals.on('figures', () => {
    inputs.figures.refresh().catch((error: unknown) => logger.error({ err: error }, 'reading the fleet\'s figures failed'));
  });
  signals.onListening((listening) => {
    // what was signalled meanwhile is lost: read it again
    watch.moved();
    metrics.signalsListening(listening);
    if (listening) logger.info('fleet signals heard again: key caches follow them');
    else logger.warn(`fleet signals cannot be heard (${redis ? 'Redis' : 'PostgreSQL\'s listening connection'} is away): key caches read the database on every turn until they are`);
  });
  const poll = periodicTask({ name: 'key-revision-poll', intervalMs: KEY_REVISION_POLL_MS, round: () => watch.poll(), logger, firstRoundAtStart: false });
  return { signals, keyRevision: watch.read, tasks: [signals, poll] };
}
