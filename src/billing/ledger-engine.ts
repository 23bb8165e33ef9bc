import type { Db, Store } from '../store/store.js';
import { kyselyLedgerTables } from './ledger-tables-kysely.js';
import { sqliteLedgerTables } from './ledger-tables-sqlite.js';
import type { LedgerTables } from './ledger-tables.js';

/**
 * The ledger tables of `store` inside the write transaction `tx`: statements prepared once on the
 * SQLite connection, the query builder (with row locks) on PostgreSQL.
 */
export function ledgerTables(store: Store, tx: Db): LedgerTables {
  return store.sqlite ? sqliteLedgerTables(store.sqlite) : kyselyLedgerTables(tx);
}
