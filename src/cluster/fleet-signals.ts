import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BackgroundTask } from './background.js';

/**
 * What one instance tells the others has changed under their copies: keys (revoked, disabled,
 * limits or routing changed), the catalogue (reloaded from its file), the measured figures (this
 * instance stored its closed minutes).
 */
export type FleetSignal = 'keys' | 'catalogue' | 'figures';

const SIGNALS: ReadonlySet<string> = new Set<FleetSignal>(['keys', 'catalogue', 'figures']);

/** How long start-up waits for the subscription before serving without it. */
export const SUBSCRIBE_WAIT_MS = 2_000;

/** The channel every instance on one Redis publishes to and listens on. */
export const SIGNAL_CHANNEL = 'switchyard:signals';

/** As published: which change, from which instance, when (its clock, in ms since the epoch). */
interface SignalMessage {
  signal: FleetSignal;
  from: string;
  at: number;
}

export interface FleetSignals {
  /** Tells the other instances; lost (and logged at debug) while Redis cannot be reached. */
  publish(signal: FleetSignal): void;
  /** `handler` runs for every signal of this kind from another instance. */
  on(signal: FleetSignal, handler: () => void): void;
  /** True while signals are heard: the subscription is in place. */
  readonly listening: boolean;
  /** Told when `listening` changes; signals sent meanwhile were lost, so copies are read again. */
  onListening(handler: (listening: boolean) => void): void;
}

/** A single instance, or one without Redis: nothing to tell, nothing heard. */
export const NO_SIGNALS: FleetSignals = {
  publish: () => undefined,
  on: () => undefined,
  listening: false,
  onListening: () => undefined,
};

export interface SignalsOptions {
  /** This instance, so it does not act on its own signals (it acted when it made the change). */
  instanceId: string;
  logger: Pick<Logger, 'debug' | 'warn' | 'info'>;
  /** Told of each signal heard, with how long it took from the sender's clock to ours. */
  heard?: (signal: FleetSignal, delayMs: number) => void;
}

/**
 * What both carriers of the signals share: the handlers of each signal and of `listening`, and
 * what a message heard does (nothing when it is this instance's own, or not a signal).
 */
export class SignalHub {
  readonly #handlers = new Map<FleetSignal, Array<() => void>>();
  readonly #listeners: Array<(listening: boolean) => void> = [];
  #listening = false;

  constructor(private readonly options: SignalsOptions) {}

  get listening(): boolean {
    return this.#listening;
  }

  setListening(now: boolean): void {
    if (now === this.#listening) return;
    this.#listening = now;
    for (const listener of this.#listeners) listener(now);
  }

  /** This instance's message for `signal`, as sent. */
  message(signal: FleetSignal): string {
    const message: SignalMessage = { signal, from: this.options.instanceId, at: Date.now() };
    return JSON.stringify(message);
  }

  heard(text: string): void {
    const message = parseMessage(text);
    if (!message || message.from === this.options.instanceId) return;
    this.options.heard?.(message.signal, Date.now() - message.at);
    for (const handler of this.#handlers.get(message.signal) ?? []) handler();
  }

  on(signal: FleetSignal, handler: () => void): void {
    this.#handlers.set(signal, [...(this.#handlers.get(signal) ?? []), handler]);
  }

  onListening(handler: (listening: boolean) => void): void {
    this.#listeners.push(handler);
  }
}

/**
 * The fleet's signals over Redis pub/sub: published on `redis` (the connection the rate limits
 * use), heard on a connection of its own (one in subscriber mode serves nothing else). ioredis
 * reconnects and subscribes again by itself; `listening` follows it.
 */
export function redisSignals(redis: Redis, options: SignalsOptions): FleetSignals & BackgroundTask {
  const subscriber = redis.duplicate({ lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: null });
  const hub = new SignalHub(options);
  let started = false;
  // a lost connection is retried by ioredis; unheard, its error event would end the process
  subscriber.on('error', (error: Error) => options.logger.debug({ err: error }, 'fleet signals: Redis connection error'));
  subscriber.on('close', () => hub.setListening(false));
  // after a reconnection ioredis subscribes again before it is ready
  subscriber.on('ready', () => {
    if (started) hub.setListening(true);
  });
  subscriber.on('message', (channel: string, text: string) => {
    if (channel === SIGNAL_CHANNEL) hub.heard(text);
  });
  return {
    name: 'fleet-signals',
    get listening() {
      return hub.listening;
    },
    publish(signal) {
      redis.publish(SIGNAL_CHANNEL, hub.message(signal)).catch((error: unknown) => {
        options.logger.debug({ err: error, signal }, 'fleet signal not sent: Redis cannot be reached');
      });
    },
    on: (signal, handler) => hub.on(signal, handler),
    onListening: (handler) => hub.onListening(handler),
    async start() {
      started = true;
      // the subscription waits for a connection, however long Redis is away; the instance serves
      // meanwhile, its caches reading the database
      const subscribed = subscriber.subscribe(SIGNAL_CHANNEL).then(
        () => hub.setListening(started),
        (error: unknown) => options.logger.warn({ err: error }, 'fleet signals cannot be heard: caches read the database'),
      );
      await Promise.race([subscribed, new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS).unref())]);
    },
    async stop() {
      started = false;
      hub.setListening(false);
      subscriber.disconnect();
    },
  };
}

function parseMessage(text: string): SignalMessage | undefined {
  try {
    const value = JSON.parse(text) as Partial<SignalMessage>;
    if (typeof value.signal !== 'string' || !SIGNALS.has(value.signal) || typeof value.from !== 'string' || typeof value.at !== 'number') return undefined;
    return value as SignalMessage;
  } catch {
    return undefined;
  }
}
