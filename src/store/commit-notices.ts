import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A connection or transaction of a store (store-handle.ts's `Db`). */
type Db = Kysely<Database>;

/** What a committed write may have changed that others keep a copy of. */
export type CommitTopic = 'keys';

/**
 * Notices delivered after a write commits: a write announces (`announceOnCommit`) what it changed
 * while it runs, and listeners hear of it once the transaction committed, never when it rolled
 * back. They are how this process learns at once of its own changes; other processes learn of
 * them from what they read, from the fleet's signals, or on PostgreSQL from the notice the
 * committing transaction sends them (postgres-notices.ts).
 */
export class CommitNotices {
  readonly #listeners = new Map<CommitTopic, Array<() => void>>();

  on(topic: CommitTopic, listener: () => void): void {
    this.#listeners.set(topic, [...(this.#listeners.get(topic) ?? []), listener]);
  }

  /**
   * Wraps a store's `write` so that what its work announces is told after the commit; `beforeCommit`
   * (PostgreSQL: notices to the other connections) hears it inside the transaction, after the work.
   */
  announcing(
    write: <T>(work: (tx: Db) => Promise<T>) => Promise<T>,
    beforeCommit?: (tx: Db, topics: ReadonlySet<CommitTopic>) => Promise<void>,
  ): <T>(work: (tx: Db) => Promise<T>) => Promise<T> {
    return async (work) => {
      const announcements: Announcements = { topics: null };
      // the same connection runs the writes of one SQLite group commit one after another: each
      // write's announcements are collected while it alone runs on it
      const result = await write((tx) => {
        announced.set(tx, announcements);
        return beforeCommit ? work(tx).then(async (done) => {
          if (announcements.topics) await beforeCommit(tx, announcements.topics);
          return done;
        }) : work(tx);
      });
      for (const topic of announcements.topics ?? []) for (const listener of this.#listeners.get(topic) ?? []) listener();
      return result;
    };
  }
}

/** What one write announced (most announce nothing: the set is made on the first). */
interface Announcements {
  topics: Set<CommitTopic> | null;
}

const announced = new WeakMap<Db, Announcements>();

/** Inside a store's write: tell the store's listeners of `topic` once `tx` commits. */
export function announceOnCommit(tx: Db, topic: CommitTopic): void {
  const announcements = announced.get(tx);
  if (announcements) (announcements.topics ??= new Set()).add(topic);
}
