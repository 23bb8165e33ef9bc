import type { Migration } from './migration.js';

/**
 * Crash recovery. Every gateway process is an instance with a heartbeat row; its holds and the
 * generations it has admitted but not settled (`status = 'pending'`) carry its id, and a pending
 * generation keeps its hold (id and amount) and what its stream had delivered at the last
 * checkpoint, so the generations of an instance that died can be settled by another one (or by the
 * next start) without waiting for the holds to expire. The partial index holds only pending rows,
 * so finding them stays cheap however many generations are recorded.
 */
export const instancesMigration: Migration = {
  id: '0004-instances',
  statements: [
    `CREATE TABLE instances (
      id TEXT PRIMARY KEY,
      host TEXT NOT NULL,
      pid INTEGER NOT NULL,
      started_at BIGINT NOT NULL,
      heartbeat_at BIGINT NOT NULL
    )`,
    `ALTER TABLE holds ADD COLUMN instance_id TEXT`,
    `ALTER TABLE generations ADD COLUMN instance_id TEXT`,
    `ALTER TABLE generations ADD COLUMN hold_id TEXT`,
    `ALTER TABLE generations ADD COLUMN held_units TEXT`,
    `CREATE INDEX generations_pending ON generations (instance_id) WHERE status = 'pending'`,
  ],
};
