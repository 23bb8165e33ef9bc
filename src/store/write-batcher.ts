import { sql } from 'kysely';
import type { Db } from './store.js';

/** Most writes committed together; bounds how long a queued write waits behind others. */
export const MAX_WRITES_PER_COMMIT = 64;

interface QueuedWrite {
  work: (tx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit for SQLite's single connection. Writes that arrive while one is running are queued
 * and then run one after another inside a single `BEGIN IMMEDIATE … COMMIT`, each in its own
 * savepoint: a write that throws (a refused hold) rolls back only its own changes, and every write
 * is answered only once the shared commit has succeeded. Under load this turns many small commits
 * into a few larger ones; with no concurrency each write is its own transaction, as before.
 */
export class WriteBatcher {
  readonly #queue: QueuedWrite[] = [];
  readonly #connection: <T>(run: (connection: Db) => Promise<T>) => Promise<T>;
  #draining = false;

  constructor(connection: <T>(run: (connection: Db) => Promise<T>) => Promise<T>) {
    this.#connection = connection;
  }

  write<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#draining) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_WRITES_PER_COMMIT);
      try {
        const outcomes = await this.#connection((connection) => commitBatch(connection, batch));
        outcomes.forEach((outcome, index) => settle(batch[index], outcome));
      } catch (error) {
        for (const write of batch) write.reject(error);
      }
    }
    this.#draining = false;
  }
}

function settle(write: QueuedWrite | undefined, outcome: Outcome): void {
  if (!write) return;
  if (outcome.ok) write.resolve(outcome.value);
  else write.reject(outcome.error);
}

async function commitBatch(connection: Db, batch: readonly QueuedWrite[]): Promise<Outcome[]> {
  await sql`BEGIN IMMEDIATE`.execute(connection);
  const outcomes: Outcome[] = [];
  try {
    if (batch.length === 1 && batch[0]) {
      outcomes.push({ ok: true, value: await batch[0].work(connection) });
    } else {
      for (const write of batch) outcomes.push(await inSavepoint(connection, write));
    }
    await sql`COMMIT`.execute(connection);
  } catch (error) {
    await sql`ROLLBACK`.execute(connection).catch(() => undefined);
    throw error;
  }
  return outcomes;
}

async function inSavepoint(connection: Db, write: QueuedWrite): Promise<Outcome> {
  await sql`SAVEPOINT queued_write`.execute(connection);
  try {
    const value = await write.work(connection);
    await sql`RELEASE queued_write`.execute(connection);
    return { ok: true, value };
  } catch (error) {
    await sql`ROLLBACK TO queued_write`.execute(connection);
    await sql`RELEASE queued_write`.execute(connection);
    return { ok: false, error };
  }
}
