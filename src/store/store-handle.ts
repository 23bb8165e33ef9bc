import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { CommitNotices } from './commit-notices.js';
import type { Engine } from './database-url.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** A connection listening for the notices of the database's other connections (see postgres-notices.ts). */
export interface NoticeListener {
  close(): Promise<void>;
}

export interface Store {
  readonly db: Db;
  readonly engine: Engine;
  /**
   * Runs `work` in one write transaction. On SQLite it is `BEGIN IMMEDIATE` on the single
   * connection, so write transactions are serialised in this process and across processes;
   * writes queued meanwhile share one commit, each in its own savepoint (see WriteBatcher).
   * A second process (the admin CLI) waits on the busy timeout. Two Stores on one SQLite file
   * inside one process must not write at the same time: better-sqlite3 waits synchronously.
   * On PostgreSQL it is an ordinary transaction: callers lock the rows they change
   * (see `forUpdate`), accounts before holds, so concurrent writers cannot deadlock. Its statements
   * are pipelined: each goes out as soon as it is asked for, so statements asked for together
   * (`Promise.all`) cost one round trip, and `commitNow` sends the commit with the last of them.
   */
  write<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Runs `work`, which writes with ONE statement, atomically and as cheaply as the engine allows:
   * on PostgreSQL outside an explicit transaction (a single statement is its own, one round trip
   * instead of three), on SQLite as `write` runs it, in the group commit. What it announces is not told.
   */
  writeStatement<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /**
   * SQLite only (null on PostgreSQL): the single connection, for hot statements prepared once and
   * run inside `write` without the query builder. Use it only inside `write` work or for reads.
   */
  readonly sqlite: BetterSqlite3.Database | null;
  /**
   * What this process's committed writes changed (see `announceOnCommit`). On PostgreSQL a write
   * that announced something also tells every connection listening (`listen`) as it commits.
   */
  readonly committed: CommitNotices;
  /**
   * PostgreSQL only (null on SQLite): listens, on a connection of its own, for what the other
   * connections to the database tell (see postgres-notices.ts); `lost` once that connection is.
   */
  readonly listen: ((heard: (text: string) => void, lost: (error?: Error) => void) => Promise<NoticeListener>) | null;
  close(): Promise<void>;
}
