import { GatewayError } from '../core/errors.js';

/**
 * How long a data key lives: 49 hours from when the value it seals was written. The sweeper runs
 * every ten minutes, so a key is gone within 50 hours of the write (spec 02 Limits), and no key is
 * ever handed out past this time even when no sweeper has run.
 */
export const DATA_KEY_LIFETIME_MS = 49 * 60 * 60 * 1000;

/** A data key in the clear, as the key store hands it out, with when it will be destroyed. */
export interface DataKey {
  id: string;
  key: Buffer;
  destroyAt: number;
}

/**
 * Where the data keys sealing stored files and batches live: a database of their own, apart from
 * the data, each key wrapped by the master key. Destroying a key deletes its row, after which what
 * it sealed is unreadable anywhere, backups of the data included (crypto-shredding). Every method
 * that cannot reach the store throws `keyStoreUnavailable()` (503): nothing is half-done.
 */
export interface KeyStore {
  /** A fresh data key, recorded before it is returned, destroyed at `destroyAt` at the latest. */
  create(options: { destroyAt: number }): Promise<DataKey>;
  /** The data key `id`, or null once destroyed or past its destroy time. */
  read(id: string): Promise<DataKey | null>;
  /** Destroys `id` now (nothing when it is already gone). */
  destroy(id: string): Promise<void>;
  /** Destroys up to `limit` keys whose destroy time has passed; returns how many. */
  destroyExpired(limit: number): Promise<number>;
  /** Resolves when the store answers (the readiness check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The answer while the key store cannot be reached: repeat shortly; nothing was stored or read. */
export function keyStoreUnavailable(): GatewayError {
  return new GatewayError('server_unavailable', 'The key store could not be reached; nothing was stored or read: repeat shortly', {
    headers: { 'Retry-After': '5' },
  });
}
