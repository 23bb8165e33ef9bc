import pg from 'pg';
import { STORE_ENGINES, TEST_POSTGRES_URL } from './store-engines.js';

/** A database a whole gateway can be started on, and how to throw it away afterwards. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface DatabaseEngine {
  name: 'sqlite' | 'postgres';
  /** A fresh, empty database (its own schema on PostgreSQL), migrated by whoever opens it. */
  create(): Promise<TestDatabase>;
}

async function freshPostgresSchema(): Promise<TestDatabase> {
  const schema = `test_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
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

/** SQLite always; PostgreSQL too when its server answers (the same rule as STORE_ENGINES). */
export const DATABASE_ENGINES: DatabaseEngine[] = STORE_ENGINES.map((engine) => engine.name === 'sqlite'
  ? { name: 'sqlite' as const, create: async () => ({ url: 'sqlite::memory:', drop: async () => undefined }) }
  : { name: 'postgres' as const, create: freshPostgresSchema });
