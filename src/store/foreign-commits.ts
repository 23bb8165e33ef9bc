import { performance } from 'node:perf_hooks';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * How often another connection's commits are looked for. `PRAGMA data_version` starts a read of the
 * log's index (file locks and a statement, 6 to 15 µs), so it is not read on every request.
 */
export const FOREIGN_COMMITS_EVERY_MS = 10;

const byDatabase = new WeakMap<BetterSqlite3.Database, ForeignCommits>();

/**
 * Commits made to a SQLite database by other connections than this process's own (the admin CLI,
 * another process on the same file), as SQLite's `data_version` counts them: `version()` changes
 * after each, within 10 ms. Commits of the connection itself never change it. One per connection,
 * shared by what keeps copies of the database's rows (balances and usage, the key revision), so
 * they look once per 10 ms between them.
 */
export class ForeignCommits {
  readonly #dataVersion: BetterSqlite3.Statement;
  #version = 0;
  #readAt = Number.NEGATIVE_INFINITY;

  private constructor(database: BetterSqlite3.Database) {
    this.#dataVersion = database.prepare('PRAGMA data_version').pluck();
  }

  static of(database: BetterSqlite3.Database): ForeignCommits {
    let found = byDatabase.get(database);
    if (!found) {
      found = new ForeignCommits(database);
      byDatabase.set(database, found);
    }
    return found;
  }

  /** The count as last read, read again if that was 10 ms ago or more. */
  version(): number {
    const now = performance.now();
    if (now - this.#readAt >= FOREIGN_COMMITS_EVERY_MS) {
      this.#version = Number(this.#dataVersion.get());
      this.#readAt = now;
    }
    return this.#version;
  }
}
