import type { Migration } from './migration.js';

/**
 * A charge is recorded by its generation's row (`cost_units`), written once by the settlement that
 * charges it, and no longer by a ledger entry beside it: that entry said again what the row says
 * (account, amount, generation), and writing it was a third of what a settlement wrote. The entries
 * earlier settlements wrote go where their generation's row carries the same account and amount;
 * `ledger_entries` keeps the deposits (and any charge entry that matched no record, left as it was).
 */
export const chargesOnGenerationsMigration: Migration = {
  id: '0012-charges-on-generations',
  statements: [
    `DELETE FROM ledger_entries WHERE kind = 'charge' AND EXISTS (
      SELECT 1 FROM generations
      WHERE generations.id = ledger_entries.generation_id
        AND generations.account_id = ledger_entries.account_id
        AND generations.cost_units = ledger_entries.amount_units
    )`,
  ],
};
