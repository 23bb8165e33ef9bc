import { PostgresDialect, type PostgresCursor, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { storableParameters } from './storable-text.js';

const INT8_OID = 20;

/** How long a request waits for a connection, and the longest a statement may run; past either it is answered 503. */
export interface PostgresTimeouts {
  connectMs: number;
  statementMs: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = { connectMs: 5_000, statementMs: 30_000 };

/**
 * A pg pool behind Kysely. BIGINT columns hold epoch milliseconds, which fit a JS number exactly,
 * so they are parsed as numbers (pg's default would be strings). Money is TEXT and never parsed here.
 * Every statement's parameters are made storable (see storable-text.ts): PostgreSQL refuses U+0000
 * in text, whether written or only looked up.
 */
export function openPostgresDialect(url: string, maxConnections = 10, timeouts: PostgresTimeouts = DEFAULT_POSTGRES_TIMEOUTS): PostgresDialect {
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    // a server that does not answer, or a statement stuck behind a lock, is a 503 to repeat, not a request left hanging
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server or the network dropped: the pool discards it, and the next query
  // opens another (or fails, and its caller answers 503). Unheard, the event would end the process.
  pool.on('error', () => undefined);
  return new PostgresDialect({ pool: storablePool(pool) });
}

function storablePool(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let storable = clients.get(client);
      if (!storable) {
        // A connection lost while checked out (the server restarted): the statement in flight fails
        // (its caller answers 503) and the pool drops the connection when it is released. Unheard,
        // the event would end the process.
        client.on('error', () => undefined);
        storable = storableClient(client);
        clients.set(client, storable);
      }
      return storable;
    },
    end: () => pool.end(),
  };
}

/** Statement texts given a name (prepared once per connection), at most: the hot ones come first. */
const MOST_NAMED_STATEMENTS = 256;

/** `select *` and `table.*`: their result's columns would change under a named statement if a migration added one. */
const EVERY_COLUMN = /select \*|\.\*/i;

/**
 * Names for statement texts, shared by every connection of the process: a named statement is parsed
 * and planned once per connection and only bound and run after that, which was 40 % of what
 * PostgreSQL spent on a request (bench/README.md). Texts carry no values (those are parameters),
 * so there are few of them; past the bound, and for statements reading every column (whose result
 * a migration by another instance could change under the prepared plan), texts run unnamed.
 */
function statementNames(): (sql: string) => string | undefined {
  const names = new Map<string, string>();
  return (sql) => {
    let name = names.get(sql);
    if (name === undefined && names.size < MOST_NAMED_STATEMENTS && !EVERY_COLUMN.test(sql)) {
      name = `switchyard_${names.size}`;
      names.set(sql, name);
    }
    return name;
  };
}

const nameOf = statementNames();

function storableClient(client: pg.PoolClient): PostgresPoolClient {
  function query(sql: string | PostgresCursor<unknown>, parameters: readonly unknown[] = []): unknown {
    if (typeof sql !== 'string') return client.query(sql as unknown as pg.Submittable);
    const values = storableParameters(parameters) as unknown[];
    const name = nameOf(sql);
    return name === undefined ? client.query(sql, values) : client.query({ name, text: sql, values });
  }
  return { query: query as PostgresPoolClient['query'], release: () => client.release() };
}
