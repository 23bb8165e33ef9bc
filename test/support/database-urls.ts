import { freshPostgresDatabase, STORE_ENGINES, type ScratchDatabase } from './store-engines.js';

/** A database a whole gateway can be started on, and how to throw it away afterwards. */
export type TestDatabase = ScratchDatabase;

export interface DatabaseEngine {
  name: 'sqlite' | 'postgres';
  /** A fresh, empty database (its own schema on PostgreSQL), migrated by whoever opens it. */
  create(): Promise<TestDatabase>;
}

/** SQLite always; PostgreSQL too when its server answers (the same rule as STORE_ENGINES). */
export const DATABASE_ENGINES: DatabaseEngine[] = STORE_ENGINES.map((engine) => engine.name === 'sqlite'
  ? { name: 'sqlite' as const, create: async () => ({ url: 'sqlite::memory:', drop: async () => undefined }) }
  : { name: 'postgres' as const, create: freshPostgresDatabase });
