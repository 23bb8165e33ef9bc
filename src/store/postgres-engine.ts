import { PostgresDialect } from 'kysely';
import pg from 'pg';

const INT8_OID = 20;

/**
 * A pg pool behind Kysely. BIGINT columns hold epoch milliseconds, which fit a JS number exactly,
 * so they are parsed as numbers (pg's default would be strings). Money is TEXT and never parsed here.
 */
export function openPostgresDialect(url: string, maxConnections = 10): PostgresDialect {
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  return new PostgresDialect({ pool });
}
