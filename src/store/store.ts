import { Kysely } from 'kysely';
import { CommitNotices } from './commit-notices.js';
import { parseDatabaseUrl } from './database-url.js';
import { runMigrations } from './migrator.js';
import type { Migration } from './migrations/migration.js';
import { openPostgresEngine, type PostgresTimeouts } from './postgres-engine.js';
import { notifyTopics } from './postgres-notices.js';
import type { Database } from './schema.js';
import { openSqliteEngine } from './sqlite-engine.js';
import { WriteBatcher } from './write-batcher.js';
import type { Store } from './store-handle.js';

export type { Db, NoticeListener, Store } from './store-handle.js';
export { commitNow } from './postgres-engine.js';

export interface OpenStoreOptions {
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
  /** Most connections open to PostgreSQL at once (default 10; SQLite has one). */
  poolSize?: number;
  /** PostgreSQL: how long a request waits for a connection, and the longest a statement may run (then 503). */
  timeouts?: PostgresTimeouts;
  /** The schema to bring it up to (default the gateway's own; the key store has its own list). */
  migrations?: readonly Migration[];
  /**
   * A SQLite file written on every request (the gateway's own database): its write-ahead log is
   * checkpointed by a thread of its own (see wal-checkpoints.ts). Elsewhere (the key store, the admin
   * CLI) SQLite checkpoints as it does by default.
   */
  checkpointThread?: boolean;
}

/** Opens `sqlite:PATH`, `sqlite::memory:` or `postgres://…` and brings its schema up to date. */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  const location = parseDatabaseUrl(url);
  const store =
    location.engine === 'sqlite' ? sqliteStore(location.path, options.checkpointThread ?? false) : await postgresStore(location.url, options.poolSize, options.timeouts);
  if (options.migrate ?? true) {
    try {
      await runMigrations(store, options.migrations);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}

function sqliteStore(path: string, checkpointThread: boolean): Store {
  const engine = openSqliteEngine(path, checkpointThread);
  const db = new Kysely<Database>({ dialect: engine.dialect });
  const batcher = new WriteBatcher(engine.database, (run) => db.connection().execute(run));
  const committed = new CommitNotices();
  return {
    db,
    engine: 'sqlite',
    sqlite: engine.database,
    committed,
    write: committed.announcing((work) => batcher.write(work)),
    writeStatement: (work) => batcher.write(work),
    listen: null,
    close: async () => {
      await engine.stopCheckpoints();
      await db.destroy();
    },
  };
}

async function postgresStore(url: string, poolSize?: number, timeouts?: PostgresTimeouts): Promise<Store> {
  const engine = await openPostgresEngine(url, poolSize, timeouts);
  const db = new Kysely<Database>({ dialect: engine.dialect });
  const committed = new CommitNotices();
  return {
    db,
    engine: 'postgres',
    sqlite: null,
    committed,
    write: committed.announcing((work) => engine.transaction(work), notifyTopics),
    writeStatement: (work) => work(db),
    listen: engine.listen,
    close: () => db.destroy(),
  };
}
