import type { Migration } from './migration.js';

/**
 * One counter that every change to what a key authenticates as (revocation, suspension, routing
 * defaults, …) advances in the same transaction, so the key caches of every process on the
 * database notice it on their next read.
 */
export const keyRevisionMigration: Migration = {
  id: '0002-key-revision',
  statements: [
    `CREATE TABLE key_revision (
      id INTEGER PRIMARY KEY,
      revision BIGINT NOT NULL
    )`,
    `INSERT INTO key_revision (id, revision) VALUES (1, 0)`,
  ],
};
