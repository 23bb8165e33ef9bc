import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

export const STATEMENT_CACHE_LIMIT = 256;

/**
 * The connection as Kysely sees it, with prepared statements reused by SQL text: the same few
 * queries run on every request, and preparing one costs more than running it. Bounded; the
 * least recently prepared text is dropped first. Safe because a connection runs one query at a time.
 */
export function withStatementCache(
  database: BetterSqlite3.Database,
  limit = STATEMENT_CACHE_LIMIT,
): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close() {
      statements.clear();
      database.close();
    },
    prepare(sql) {
      const cached = statements.get(sql);
      if (cached) return cached;
      const statement = database.prepare(sql);
      if (statements.size >= limit) {
        const oldest = statements.keys().next();
        if (!oldest.done) statements.delete(oldest.value);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
