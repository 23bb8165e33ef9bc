import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from './store-handle.js';

/** Most writes committed together; bounds how long a queued write waits behind others. */
export const MAX_WRITES_PER_COMMIT = 64;

interface QueuedWrite {
  work: (tx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const rollbacksByDatabase = new WeakMap<BetterSqlite3.Database, number>();

/**
 * How many times the write batch on `database` has undone writes (a savepoint rolled back, or a whole
 * batch): what remembers a value it wrote knows from a change of this count that the value may be gone.
 */
export function sqliteRollbacks(database: BetterSqlite3.Database): number {
  return rollbacksByDatabase.get(database) ?? 0;
}

/** Transaction control, prepared once: these run several times per request under load. */
class TransactionStatements {
  readonly begin: BetterSqlite3.Statement;
  readonly commit: BetterSqlite3.Statement;
  readonly rollback: BetterSqlite3.Statement;
  readonly savepoint: BetterSqlite3.Statement;
  readonly release: BetterSqlite3.Statement;
  readonly rollbackToSavepoint: BetterSqlite3.Statement;

  constructor(database: BetterSqlite3.Database) {
    this.begin = database.prepare('BEGIN IMMEDIATE');
    this.commit = database.prepare('COMMIT');
    this.rollback = database.prepare('ROLLBACK');
    this.savepoint = database.prepare('SAVEPOINT queued_write');
    this.release = database.prepare('RELEASE queued_write');
    this.rollbackToSavepoint = database.prepare('ROLLBACK TO queued_write');
  }
}

/**
 * Group commit for SQLite's single connection. Writes that arrive while one is running are queued
 * and then run one after another inside a single `BEGIN IMMEDIATE … COMMIT`, each in its own
 * savepoint: a write that throws (a refused hold) rolls back only its own changes, and every write
 * is answered only once the shared commit has succeeded. Under load this turns many small commits
 * into a few larger ones; with no concurrency each write is its own transaction, as before.
 */
export class WriteBatcher {
  readonly #queue: QueuedWrite[] = [];
  readonly #statements: TransactionStatements;
  readonly #database: BetterSqlite3.Database;
  readonly #connection: <T>(run: (connection: Db) => Promise<T>) => Promise<T>;
  #draining = false;

  /** `connection` holds the query builder's connection for a whole batch, so nothing interleaves. */
  constructor(database: BetterSqlite3.Database, connection: <T>(run: (connection: Db) => Promise<T>) => Promise<T>) {
    this.#statements = new TransactionStatements(database);
    this.#database = database;
    this.#connection = connection;
  }

  write<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.#draining) return;
      this.#draining = true;
      setImmediate(() => void this.#drain());
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_WRITES_PER_COMMIT);
      try {
        const outcomes = await this.#connection((connection) => this.#commitBatch(connection, batch));
        outcomes.forEach((outcome, index) => settle(batch[index], outcome));
      } catch (error) {
        for (const write of batch) write.reject(error);
      }
    }
    this.#draining = false;
  }

  async #commitBatch(connection: Db, batch: readonly QueuedWrite[]): Promise<Outcome[]> {
    const statements = this.#statements;
    statements.begin.run();
    const outcomes: Outcome[] = [];
    try {
      if (batch.length === 1 && batch[0]) {
        outcomes.push({ ok: true, value: await batch[0].work(connection) });
      } else {
        for (const write of batch) outcomes.push(await this.#inSavepoint(connection, write));
      }
      statements.commit.run();
    } catch (error) {
      this.#countRollback();
      try {
        statements.rollback.run();
      } catch {
        // the failed statement may already have ended the transaction
      }
      throw error;
    }
    return outcomes;
  }

  async #inSavepoint(connection: Db, write: QueuedWrite): Promise<Outcome> {
    const statements = this.#statements;
    statements.savepoint.run();
    try {
      const value = await write.work(connection);
      statements.release.run();
      return { ok: true, value };
    } catch (error) {
      this.#countRollback();
      statements.rollbackToSavepoint.run();
      statements.release.run();
      return { ok: false, error };
    }
  }

  #countRollback(): void {
    rollbacksByDatabase.set(this.#database, sqliteRollbacks(this.#database) + 1);
  }
}

function settle(write: QueuedWrite | undefined, outcome: Outcome): void {
  if (!write) return;
  if (outcome.ok) write.resolve(outcome.value);
  else write.reject(outcome.error);
}
