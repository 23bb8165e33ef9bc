import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { storableParameters } from './storable-text.js';

export const STATEMENT_CACHE_LIMIT = 256;

/**
 * The connection as Kysely sees it, with prepared statements reused by SQL text: the same few
 * queries run on every request, and preparing one costs more than running it. Bounded; the
 * least recently prepared text is dropped first. Safe because a connection runs one query at a time.
 * Parameters are made storable (see storable-text.ts), so both engines store the same text.
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
      const statement = storableStatement(database.prepare(sql));
      if (statements.size >= limit) {
        const oldest = statements.keys().next();
        if (!oldest.done) statements.delete(oldest.value);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

function storableStatement(statement: BetterSqlite3.Statement): SqliteStatement {
  return {
    reader: statement.reader,
    all: (parameters) => statement.all(storableParameters(parameters)),
    run: (parameters) => statement.run(storableParameters(parameters)),
    iterate: (parameters) => statement.iterate(storableParameters(parameters)),
  };
}
