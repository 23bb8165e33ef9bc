import type { Db } from '../store-handle.js';

/**
 * One schema step. Statements are plain SQL that SQLite and PostgreSQL both run unchanged:
 * TEXT ids and money, BIGINT epoch-ms timestamps, INTEGER flags. Where moving existing rows needs
 * arithmetic SQL cannot do the same way on both engines (sums of money), `backfill` does it through
 * the query builder after the statements, in the same transaction.
 */
export interface Migration {
  /** Sortable and never reused: applied migrations are recorded under this id. */
  id: string;
  statements: readonly string[];
  backfill?: (tx: Db) => Promise<void>;
}
