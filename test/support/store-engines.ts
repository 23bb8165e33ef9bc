import pg from 'pg';
import { openStore, type Store } from '../../src/store/store.js';

/** The PostgreSQL server the tests use; CI starts one (see .ci/run). */
export const TEST_POSTGRES_URL = process.env.SWITCHYARD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface StoreEngine {
  name: 'sqlite' | 'postgres';
  /** A fresh, migrated, empty store (its own schema on PostgreSQL). */
  open(): Promise<Store>;
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    console.warn(`PostgreSQL tests skipped: no server at ${TEST_POSTGRES_URL} (${String(error)})`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A database URL of its own for one test: `drop()` removes what it holds once it is closed. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** An empty schema of the test server, named by the URL's search_path. */
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

async function freshPostgresStore(): Promise<Store> {
  const database = await freshPostgresDatabase();
  const store = await openStore(database.url);
  const close = store.close.bind(store);
  return Object.assign(store, {
    async close() {
      await close();
      await database.drop();
    },
  });
}

export const POSTGRES_REACHABLE = await postgresReachable();

/** SQLite always; PostgreSQL too when its server answers (otherwise skipped with the reason printed). */
export const STORE_ENGINES: StoreEngine[] = [
  { name: 'sqlite', open: () => openStore('sqlite::memory:') },
  ...(POSTGRES_REACHABLE ? [{ name: 'postgres' as const, open: freshPostgresStore }] : []),
];

/** A database for a whole gateway on each engine of STORE_ENGINES. */
export const GATEWAY_DATABASES: { name: StoreEngine['name']; open(): Promise<ScratchDatabase> }[] = [
  { name: 'sqlite', open: async () => ({ url: 'sqlite::memory:', drop: async () => undefined }) },
  ...(POSTGRES_REACHABLE ? [{ name: 'postgres' as const, open: freshPostgresDatabase }] : []),
];
