import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach } from 'vitest';
import { runMigrations } from '../../src/store/migrator.js';
import { MIGRATIONS } from '../../src/store/migrations/migration-list.js';
import { openStore, type Store } from '../../src/store/store.js';

/** The PostgreSQL server the tests use; CI starts one (see .ci/run). */
export const TEST_POSTGRES_URL = process.env.SWITCHYARD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface StoreEngine {
  name: 'sqlite' | 'postgres';
  /** A fresh, migrated, empty store (its own schema on PostgreSQL). */
  open(): Promise<Store>;
  /** Two stores on one fresh database, as two processes would open it (closing the first drops it). */
  openPair(): Promise<[Store, Store]>;
}

/**
 * Whether the PostgreSQL test server answers. Where it does not, the PostgreSQL tests are skipped
 * with the reason printed, except under CI=true, where CI has started one: there the suite fails.
 */
async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    const reason = `no PostgreSQL server at ${TEST_POSTGRES_URL} (${String(error)})`;
    if (process.env.CI === 'true') throw new Error(`CI=true requires PostgreSQL for the store tests: ${reason}`);
    console.warn(`PostgreSQL tests skipped: ${reason}`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function freshPostgresStore(): Promise<Store> {
  return (await freshPostgresPair(1))[0];
}

async function freshPostgresStores(): Promise<[Store, Store]> {
  const [first, second] = await freshPostgresPair(2);
  if (!second) throw new Error('no second store');
  return [first, second];
}

/** Two stores on one fresh SQLite file: two connections, as a gateway and the admin CLI have. */
export async function freshSqliteStores(): Promise<[Store, Store]> {
  const url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'switchyard-pair-')), 'db.sqlite')}`;
  return [await openStore(url), await openStore(url)];
}

/** A fresh, empty schema on the test server, as the database URL a store or a gateway opens. */
export interface ScratchDatabase {
  url: string;
  /** Drops the schema and everything in it; close whatever opened it first. */
  drop(): Promise<void>;
}

/** The same, by its other name. */
export type FreshPostgres = ScratchDatabase;

export async function freshPostgresDatabase(): Promise<ScratchDatabase> {
  const schema = `test_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const cleaner = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await cleaner.connect();
      await cleaner.query(`DROP SCHEMA ${schema} CASCADE`).finally(() => cleaner.end());
    },
  };
}

/** A fresh, empty database on `engine` (a file for SQLite), for a store opened without migrating it. */
async function scratchDatabase(engine: StoreEngine['name']): Promise<ScratchDatabase> {
  if (engine === 'postgres') return freshPostgresDatabase();
  return { url: `sqlite:${join(mkdtempSync(join(tmpdir(), 'switchyard-scratch-')), 'db.sqlite')}`, drop: async () => undefined };
}

/**
 * A migration tried on rows written as the schema stood before it: a scratch database on `engine`
 * migrated up to `migration` (not included), `rows` (SQL statements) written, then the store handed
 * to `check`, which runs the rest. Closed and dropped afterwards.
 */
export async function beforeMigration(
  { engine, migration, rows }: { engine: StoreEngine['name']; migration: string; rows: readonly string[] },
  check: (store: Store) => Promise<void>,
): Promise<void> {
  const before = MIGRATIONS.findIndex(({ id }) => id === migration);
  if (before < 0) throw new Error(`no migration ${migration}`);
  const database = await scratchDatabase(engine);
  const store = await openStore(database.url, { migrate: false });
  try {
    await runMigrations(store, MIGRATIONS.slice(0, before));
    for (const row of rows) await sql.raw(row).execute(store.db);
    await check(store);
  } finally {
    await store.close();
    await database.drop();
  }
}

async function freshPostgresPair(count: number): Promise<[Store, ...Store[]]> {
  const database = await freshPostgresDatabase();
  const store = await openStore(database.url);
  const others: Store[] = [];
  for (let i = 1; i < count; i += 1) others.push(await openStore(database.url));
  const close = store.close.bind(store);
  const first = Object.assign(store, {
    async close() {
      await close();
      await database.drop();
    },
  });
  return [first, ...others];
}

/** Whether the test PostgreSQL server answers; when it does not, the reason is printed once. */
export const POSTGRES_REACHABLE = await postgresReachable();

/** SQLite always; PostgreSQL too when its server answers (otherwise skipped with the reason printed). */
export const STORE_ENGINES: StoreEngine[] = [
  { name: 'sqlite', open: () => openStore('sqlite::memory:'), openPair: freshSqliteStores },
  ...(POSTGRES_REACHABLE ? [{ name: 'postgres' as const, open: freshPostgresStore, openPair: freshPostgresStores }] : []),
];

/** A database for a whole gateway on each engine of STORE_ENGINES. */
export const GATEWAY_DATABASES: { name: StoreEngine['name']; open(): Promise<ScratchDatabase> }[] = [
  { name: 'sqlite', open: async () => ({ url: 'sqlite::memory:', drop: async () => undefined }) },
  ...(POSTGRES_REACHABLE ? [{ name: 'postgres' as const, open: freshPostgresDatabase }] : []),
];

/**
 * How a test file opens fresh stores on `engine`: each one is closed (and on PostgreSQL its schema
 * dropped) after the test that opened it. Call it inside the `describe` of the engine.
 */
export function storeOpener(engine: StoreEngine): () => Promise<Store> {
  const opened: Store[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  return async () => {
    const store = await engine.open();
    opened.push(store);
    return store;
  };
}
