import { sql } from 'kysely';
import type { Db, Store } from '../store/store.js';

/**
 * Advances the key revision inside the transaction `tx`. Every write that changes what a key
 * authenticates as (revocation, suspension, limits, routing defaults) calls it, so the key caches
 * of every process on the database drop what they hold on their next read, on either engine.
 */
export async function bumpKeyRevision(tx: Db): Promise<void> {
  await tx.updateTable('key_revision').set({ revision: sql<number>`revision + 1` }).where('id', '=', 1).execute();
}

/** Reads the current key revision. */
export type KeyRevisionReader = () => Promise<number>;

/**
 * The key revision of `store`, read at most once per turn of the event loop: the requests that
 * arrive together share one reading (a prepared statement on SQLite, one indexed row on PostgreSQL).
 */
export function keyRevisionReader(store: Store): KeyRevisionReader {
  const statement = store.sqlite?.prepare<[], number>('SELECT revision FROM key_revision WHERE id = 1').pluck();
  const read = statement
    ? () => Promise.resolve(statement.get() ?? 0)
    : async () => Number((await store.db.selectFrom('key_revision').select('revision').where('id', '=', 1).executeTakeFirst())?.revision ?? 0);
  let pending: Promise<number> | undefined;
  return () => {
    if (!pending) {
      pending = read();
      setImmediate(() => {
        pending = undefined;
      });
    }
    return pending;
  };
}
