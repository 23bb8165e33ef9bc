import type { Migration } from './migration.js';

/**
 * A hold's workspace and account indexed like its key: a hold judging spend limits reads the open
 * holds of each limited scope, and without these it scanned the whole `holds` table, every row a
 * hold ever left behind until PostgreSQL vacuums it (tens of milliseconds under load).
 */
export const holdOwnersMigration: Migration = {
  id: '0011-hold-owners',
  statements: ['CREATE INDEX holds_workspace ON holds (workspace_id)', 'CREATE INDEX holds_account ON holds (account_id)'],
};
