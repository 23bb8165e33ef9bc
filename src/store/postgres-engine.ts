import { CompiledQuery, Kysely, PostgresDialect, type PostgresCursor, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type { Duplex } from 'node:stream';
import type pg from 'pg';
import type { Database } from './schema.js';
import { storableParameters } from './storable-text.js';
import { listenForNotices } from './postgres-notices.js';
import type { NoticeListener } from './store-handle.js';

const INT8_OID = 20;

/** How long a request waits for a connection, and the longest a statement may run; past either it is answered 503. */
export interface PostgresTimeouts {
  connectMs: number;
  statementMs: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = { connectMs: 5_000, statementMs: 30_000 };

/** PostgreSQL behind Kysely: the dialect, and write transactions whose statements are pipelined. */
export interface PostgresEngine {
  dialect: PostgresDialect;
  /**
   * Runs `work` in one transaction on one connection, whose statements go out as they are asked
   * for, without waiting for the answers to the ones before (the server still runs them in their
   * order): `BEGIN` goes out with the first, and statements asked for together (`Promise.all`)
   * cost one round trip. Each statement still reads what was committed when it started (READ
   * COMMITTED), so one asked for after a lock reads after the lock is held.
   */
  transaction<T>(work: (tx: Kysely<Database>) => Promise<T>): Promise<T>;
  /** Listens for the notices of the database's other connections, on a connection of its own (see postgres-notices.ts). */
  listen(heard: (text: string) => void, lost: (error?: Error) => void): Promise<NoticeListener>;
}

/**
 * A pg pool behind Kysely. BIGINT columns hold epoch milliseconds, which fit a JS number exactly,
 * so they are parsed as numbers (pg's default would be strings). Money is TEXT and never parsed here.
 * Every statement's parameters are made storable (see storable-text.ts): PostgreSQL refuses U+0000
 * in text, whether written or only looked up. The pool's connections run in pg's pipeline mode:
 * statements asked of one connection together are sent together (Kysely's own transactions and
 * connections still ask for one at a time; only `transaction` asks for several).
 */
export async function openPostgresEngine(url: string, maxConnections = 10, timeouts: PostgresTimeouts = DEFAULT_POSTGRES_TIMEOUTS): Promise<PostgresEngine> {
  // loaded only when a database is PostgreSQL: a gateway on SQLite never holds the driver
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    // a server that does not answer, or a statement stuck behind a lock, is a 503 to repeat, not a request left hanging
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    pipeline: true,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server or the network dropped: the pool discards it, and the next query
  // opens another (or fails, and its caller answers 503). Unheard, the event would end the process.
  pool.on('error', () => undefined);
  const storable = storablePool(pool);
  return {
    dialect: new PostgresDialect({ pool: storable }),
    transaction: (work) => pipelinedTransaction(storable, work),
    listen: (heard, lost) => listenForNotices(new pg.Client({ connectionString: url, connectionTimeoutMillis: timeouts.connectMs }), heard, lost),
  };
}

/** The query builder on one connection, asking for each statement as soon as it is run (see `PostgresEngine.transaction`). */
const pipelinedBuilders = new WeakMap<PostgresPoolClient, Kysely<Database>>();

function pipelinedBuilder(client: PostgresPoolClient): Kysely<Database> {
  let builder = pipelinedBuilders.get(client);
  if (!builder) {
    // a pool of this one connection, handed out to every statement at once; `transaction` releases it
    const shared: PostgresPoolClient = { query: client.query, release: () => undefined };
    const only: PostgresPool = { connect: async () => shared, end: async () => undefined };
    builder = new Kysely<Database>({ dialect: new PostgresDialect({ pool: only }) });
    pipelinedBuilders.set(client, builder);
  }
  return builder;
}

/** The commit of each pipelined transaction under way, asked for by `commitNow`. */
const commits = new WeakMap<Kysely<Database>, () => Promise<unknown>>();

const COMMIT = CompiledQuery.raw('COMMIT');

/**
 * Inside a store's `write`: asks for the commit now, behind the statements already asked for,
 * rather than once the work returns. On PostgreSQL it then goes out with them, a round trip
 * saved; the work writes nothing after it, and still learns of a failed statement from its answer.
 * On SQLite it changes nothing: the group commit comes after the work, as always.
 */
export function commitNow(tx: Kysely<Database>): void {
  commits.get(tx)?.();
}

async function pipelinedTransaction<T>(pool: StorablePool, work: (tx: Kysely<Database>) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let healthy = true;
  const tx = pipelinedBuilder(client);
  try {
    // not awaited: it goes out with the first statement of `work`
    const begun = client.query('BEGIN', []) as Promise<unknown>;
    begun.catch(() => undefined);
    // asked for as the work's statements are (not on the connection directly), so it goes out after them
    let committed: Promise<unknown> | undefined;
    commits.set(tx, () => {
      committed ??= tx.executeQuery(COMMIT);
      committed.catch(() => undefined);
      return committed;
    });
    try {
      const result = await work(tx);
      await begun;
      await (committed ?? client.query('COMMIT', []));
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK', []);
      } catch {
        // a connection that cannot roll back is not handed out again
        healthy = false;
      }
      throw error;
    }
  } finally {
    commits.delete(tx);
    client.release(!healthy);
  }
}

/** A pooled connection; released with `destroy`, it is closed rather than handed out again. */
interface StorableClient extends PostgresPoolClient {
  release(destroy?: boolean): void;
}

interface StorablePool extends PostgresPool {
  connect(): Promise<StorableClient>;
}

function storablePool(pool: pg.Pool): StorablePool {
  const clients = new WeakMap<pg.PoolClient, StorableClient>();
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

/** The connections' sockets corked in this turn of the event loop, uncorked together at its end. */
const corked = new Set<Duplex>();

function uncorkAll(): void {
  for (const socket of corked) socket.uncork();
  corked.clear();
}

/**
 * Holds what is written to `socket` until the end of this turn of the event loop: the statements
 * asked of one connection in one turn (a transaction's `BEGIN`, its statements and its `COMMIT`,
 * pipelined) go out in one write, where each was a write of its own, and each write wakes the
 * server's process. pg corks around each statement's messages itself; a cork counts, so its own
 * uncork leaves this one in place.
 */
function corkForTurn(socket: Duplex): void {
  if (corked.has(socket)) return;
  if (corked.size === 0) setImmediate(uncorkAll);
  socket.cork();
  corked.add(socket);
}

function storableClient(client: pg.PoolClient): StorableClient {
  const socket = client.connection.stream;
  function query(sql: string | PostgresCursor<unknown>, parameters: readonly unknown[] = []): unknown {
    corkForTurn(socket);
    if (typeof sql !== 'string') return client.query(sql as unknown as pg.Submittable);
    const values = storableParameters(parameters) as unknown[];
    const name = nameOf(sql);
    return name === undefined ? client.query(sql, values) : client.query({ name, text: sql, values });
  }
  return { query: query as PostgresPoolClient['query'], release: (destroy?: boolean) => client.release(destroy) };
}
