import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
import { withStatementCache } from './statement-cache.js';

export interface SqliteEngine {
  dialect: SqliteDialect;
  /** The connection itself, for the few hot statements run without the query builder. */
  database: BetterSqlite3.Database;
  /** Stops the timed WAL checkpoints; call before closing. */
  stopCheckpoints(): void;
}

/** The write-ahead log is copied into the database once it holds this many pages (SQLite's default: 1,000)… */
const WAL_AUTOCHECKPOINT_PAGES = 10_000;
/** …or, when anything was written, this often: what a power cut may lose stays under a second of writes. */
const CHECKPOINT_INTERVAL_MS = 1_000;

/**
 * Opens one better-sqlite3 connection tuned for a gateway: WAL (readers never block the writer),
 * synchronous=NORMAL (durable at each checkpoint, safe with WAL), a busy timeout so a second
 * process (the admin CLI) waits instead of failing, foreign keys enforced as on PostgreSQL, temporary
 * storage (the savepoint journals of a group commit) in memory, and
 * `units_add(a, b)`, the exact sum of two integer strings (PostgreSQL adds them as `numeric`).
 */
export function openSqliteEngine(path: string): SqliteEngine {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new BetterSqlite3(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // the savepoints of a group commit journal to memory, not to temporary files on disk
  database.pragma('temp_store = MEMORY');
  // Every request rewrites the same few pages (the account's row, the spend rows, the ends of the
  // indexes), and a checkpoint copies each page once however often it was rewritten since the last:
  // ten times fewer checkpoints copy about ten times fewer pages.
  database.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  // money is TEXT holding integers beyond 64 bits: SQLite adds two such amounts with this, exactly
  database.function('units_add', { deterministic: true }, (a: unknown, b: unknown) => (BigInt(String(a)) + BigInt(String(b))).toString());
  const checkpoints = path === ':memory:' ? undefined : timedCheckpoints(database);
  return {
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
    database,
    stopCheckpoints: () => clearInterval(checkpoints),
  };
}

/**
 * With synchronous=NORMAL a commit reaches the disk at the next checkpoint. Pages alone would leave
 * a quiet gateway's last writes unsynced for long, so a checkpoint also runs each second something
 * was written (PASSIVE: it waits for no one), between the write batch's transactions.
 */
function timedCheckpoints(database: BetterSqlite3.Database): NodeJS.Timeout {
  const changes = database.prepare('SELECT total_changes()').pluck();
  let checkpointed = 0;
  const timer = setInterval(() => {
    if (!database.open || database.inTransaction) return;
    const now = changes.get() as number;
    if (now === checkpointed) return;
    try {
      database.pragma('wal_checkpoint(PASSIVE)');
      checkpointed = now;
    } catch {
      // another process holds the database for now (the admin CLI): the next second tries again
    }
  }, CHECKPOINT_INTERVAL_MS);
  timer.unref();
  return timer;
}
