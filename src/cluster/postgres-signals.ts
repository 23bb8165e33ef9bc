import type { NoticeListener, Store } from '../store/store.js';
import { sendNotice } from '../store/postgres-notices.js';
import type { BackgroundTask } from './background.js';
import { SignalHub, SUBSCRIBE_WAIT_MS, type FleetSignals, type SignalsOptions } from './fleet-signals.js';

/** How long after losing its listening connection an instance tries again. */
export const LISTEN_RETRY_MS = 1_000;

/**
 * The fleet's signals where there is no Redis, over the database's own notices (LISTEN/NOTIFY, see
 * store/postgres-notices.ts): heard on a connection of its own, published through the pool. A key
 * change is told by the transaction that makes it, as it commits, whichever process made it (the
 * admin command line too), so publishing `keys` sends nothing more. A lost connection is opened
 * again every second; `listening` follows it.
 */
export function postgresSignals(store: Store, options: SignalsOptions): FleetSignals & BackgroundTask {
  const listen = store.listen;
  if (!listen) throw new Error('database notices need PostgreSQL');
  const hub = new SignalHub(options);
  let started = false;
  let listener: NoticeListener | undefined;
  let retry: NodeJS.Timeout | undefined;
  const again = () => {
    if (started && !retry) retry = setTimeout(() => void connect(), LISTEN_RETRY_MS).unref();
  };
  const lost = (error?: Error) => {
    listener = undefined;
    options.logger.debug({ err: error }, 'fleet signals: the listening connection to PostgreSQL was lost');
    hub.setListening(false);
    again();
  };
  const connect = async () => {
    retry = undefined;
    try {
      const opened = await listen((text) => hub.heard(text), lost);
      if (!started) {
        await opened.close();
        return;
      }
      listener = opened;
      hub.setListening(true);
    } catch (error) {
      options.logger.debug({ err: error }, 'fleet signals: cannot listen on PostgreSQL');
      again();
    }
  };
  return {
    name: 'fleet-signals',
    get listening() {
      return hub.listening;
    },
    publish(signal) {
      if (signal === 'keys') return;
      sendNotice(store.db, hub.message(signal)).catch((error: unknown) => {
        options.logger.debug({ err: error, signal }, 'fleet signal not sent: PostgreSQL cannot be reached');
      });
    },
    on: (signal, handler) => hub.on(signal, handler),
    onListening: (handler) => hub.onListening(handler),
    async start() {
      started = true;
      // the instance serves meanwhile, its caches reading the database
      await Promise.race([connect(), new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS).unref())]);
    },
    async stop() {
      started = false;
      clearTimeout(retry);
      retry = undefined;
      hub.setListening(false);
      await listener?.close();
      listener = undefined;
    },
  };
}
