import { REDIS_REACHABLE, TEST_REDIS_URL } from './redis.js';
import { freshPostgresDatabase, POSTGRES_REACHABLE, STORE_ENGINES, type ScratchDatabase } from './store-engines.js';

/** A database a whole gateway can be started on, and how to throw it away afterwards. */
export type TestDatabase = ScratchDatabase;

/** Gateways sharing one database, one key store and one Redis, as `serve --database --redis --key-store` on N machines. */
export interface FleetShape {
  instances: number;
  redisUrl: string;
}

export interface DatabaseEngine {
  name: 'sqlite' | 'postgres' | 'fleet';
  /** A fresh, empty database (its own schema on PostgreSQL), migrated by whoever opens it. */
  create(): Promise<TestDatabase>;
  /** Set on the fleet only: how many gateways share the database, and their Redis. */
  fleet?: FleetShape;
}

/** Three gateways on one PostgreSQL database and one Redis (DESIGN §8 "A fleet"). */
const FLEET: DatabaseEngine = { name: 'fleet', create: freshPostgresDatabase, fleet: { instances: 3, redisUrl: TEST_REDIS_URL } };

/**
 * SQLite always; PostgreSQL too when its server answers (the same rule as STORE_ENGINES); and the
 * fleet when Redis answers as well. Where a server is absent its engines are skipped with the reason
 * printed, except under CI=true, where the suite fails instead (see store-engines.ts and redis.ts).
 */
export const DATABASE_ENGINES: DatabaseEngine[] = [
  ...STORE_ENGINES.map((engine): DatabaseEngine => engine.name === 'sqlite'
    ? { name: 'sqlite', create: async () => ({ url: 'sqlite::memory:', drop: async () => undefined }) }
    : { name: 'postgres', create: freshPostgresDatabase }),
  ...(POSTGRES_REACHABLE && REDIS_REACHABLE ? [FLEET] : []),
];
