import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
import { withStatementCache } from './statement-cache.js';
import { startWalCheckpoints } from './wal-checkpoints.js';

export interface SqliteEngine {
  dialect: SqliteDialect;
  /** The connection itself, for the few hot statements run without the query builder. */
  database: BetterSqlite3.Database;
  /** Stops the write-ahead log's checkpointer (see wal-checkpoints.ts); call before closing. */
  stopCheckpoints(): Promise<void>;
}

/**
 * Opens one better-sqlite3 connection tuned for a gateway: WAL (readers never block the writer),
 * synchronous=NORMAL (durable at each checkpoint, safe with WAL; with `checkpointThread`, a file's
 * checkpoints run in a thread of their own, see wal-checkpoints.ts), a busy timeout so a second
 * process (the admin CLI) waits instead of failing, foreign keys enforced as on PostgreSQL, temporary
 * storage (the savepoint journals of a group commit) in memory, and
 * `units_add(a, b)`, the exact sum of two integer strings (PostgreSQL adds them as `numeric`).
 */
export function openSqliteEngine(path: string, checkpointThread = false): SqliteEngine {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new BetterSqlite3(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // the savepoints of a group commit journal to memory, not to temporary files on disk
  database.pragma('temp_store = MEMORY');
  // money is TEXT holding integers beyond 64 bits: SQLite adds two such amounts with this, exactly
  database.function('units_add', { deterministic: true }, (a: unknown, b: unknown) => (BigInt(String(a)) + BigInt(String(b))).toString());
  const checkpoints = checkpointThread && path !== ':memory:' ? startWalCheckpoints(database, path) : undefined;
  return {
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
    database,
    stopCheckpoints: async () => checkpoints?.stop(),
  };
}
