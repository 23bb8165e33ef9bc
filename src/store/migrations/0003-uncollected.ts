import type { Migration } from './migration.js';

/**
 * What a generation's reported usage priced above its charge (the charge never exceeds the hold),
 * and why: null on both when all of it was charged.
 */
export const uncollectedMigration: Migration = {
  id: '0003-uncollected',
  statements: [
    `ALTER TABLE generations ADD COLUMN uncollected_units TEXT`,
    `ALTER TABLE generations ADD COLUMN uncollected_reason TEXT`,
  ],
};
