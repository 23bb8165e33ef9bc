import { sql } from 'kysely';
import { MIGRATIONS } from './migrations/migration-list.js';
import type { Migration } from './migrations/migration.js';
import type { Db, Store } from './store-handle.js';

/** Any fixed number: PostgreSQL instances starting together take turns on this advisory lock. */
const MIGRATION_LOCK = 7_360_419_221;

/**
 * Applies every migration not yet recorded in `switchyard_migrations`, in order, all in one write
 * transaction (DDL is transactional on both engines), so a failure leaves the schema unchanged.
 * Returns the ids applied.
 */
export async function runMigrations(
  store: Store,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<string[]> {
  return store.write(async (tx) => {
    if (store.engine === 'postgres') {
      await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(tx);
    }
    await sql`CREATE TABLE IF NOT EXISTS switchyard_migrations (
      id TEXT PRIMARY KEY,
      applied_at BIGINT NOT NULL
    )`.execute(tx);
    const applied = new Set(
      (await tx.selectFrom('switchyard_migrations').select('id').execute()).map((row) => row.id),
    );
    const pending = migrations.filter((migration) => !applied.has(migration.id));
    for (const migration of pending) await apply(tx, migration);
    return pending.map((migration) => migration.id);
  });
}

async function apply(tx: Db, migration: Migration): Promise<void> {
  for (const statement of migration.statements) await sql.raw(statement).execute(tx);
  await migration.backfill?.(tx);
  await tx
    .insertInto('switchyard_migrations')
    .values({ id: migration.id, applied_at: Date.now() })
    .execute();
}
