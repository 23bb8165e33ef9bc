/**
 * One schema step. Statements are plain SQL that SQLite and PostgreSQL both run unchanged:
 * TEXT ids and money, BIGINT epoch-ms timestamps, INTEGER flags.
 */
export interface Migration {
  /** Sortable and never reused: applied migrations are recorded under this id. */
  id: string;
  statements: readonly string[];
}
