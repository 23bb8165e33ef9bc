import type { Db, Store } from '../store/store.js';
import type { Units } from './money.js';

export interface AccountBalance {
  balance: Units;
  reserved: Units;
}

/**
 * Reads an account's balance inside a write transaction, locking its row on PostgreSQL
 * (SQLite's write transaction already excludes every other writer). Every money-moving
 * transaction locks the account first, then touches holds and keys, so they cannot deadlock.
 */
export async function lockAccountBalance(
  store: Store,
  tx: Db,
  accountId: string,
): Promise<AccountBalance | null> {
  const row = await tx
    .selectFrom('accounts')
    .select(['balance_units', 'reserved_units'])
    .where('id', '=', accountId)
    .$if(store.engine === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
  if (!row) return null;
  return { balance: BigInt(row.balance_units), reserved: BigInt(row.reserved_units) };
}

export async function writeAccountBalance(tx: Db, accountId: string, next: AccountBalance): Promise<void> {
  await tx
    .updateTable('accounts')
    .set({ balance_units: next.balance.toString(), reserved_units: next.reserved.toString() })
    .where('id', '=', accountId)
    .execute();
}
