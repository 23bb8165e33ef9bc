import type BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import { parseDatabaseUrl, type Engine } from './database-url.js';
import { runMigrations } from './migrator.js';
import { openPostgresDialect } from './postgres-engine.js';
import type { Database } from './schema.js';
import { openSqliteEngine } from './sqlite-engine.js';
import { WriteBatcher } from './write-batcher.js';

export type Db = Kysely<Database>;

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
   * (see `forUpdate`), accounts before holds, so concurrent writers cannot deadlock.
   */
  write<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * SQLite only (null on PostgreSQL): the single connection, for hot statements prepared once and
   * run inside `write` without the query builder. Use it only inside `write` work or for reads.
   */
  readonly sqlite: BetterSqlite3.Database | null;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
}

/** Opens `sqlite:PATH`, `sqlite::memory:` or `postgres://…` and brings its schema up to date. */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  const location = parseDatabaseUrl(url);
  const store =
    location.engine === 'sqlite' ? sqliteStore(location.path) : postgresStore(location.url);
  if (options.migrate ?? true) {
    try {
      await runMigrations(store);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}

function sqliteStore(path: string): Store {
  const engine = openSqliteEngine(path);
  const db = new Kysely<Database>({ dialect: engine.dialect });
  const batcher = new WriteBatcher(engine.database, (run) => db.connection().execute(run));
  return {
    db,
    engine: 'sqlite',
    sqlite: engine.database,
    write: (work) => batcher.write(work),
    close: () => db.destroy(),
  };
}

function postgresStore(url: string): Store {
  const db = new Kysely<Database>({ dialect: openPostgresDialect(url) });
  return {
    db,
    engine: 'postgres',
    sqlite: null,
    write: (work) => db.transaction().execute(work),
    close: () => db.destroy(),
  };
}
