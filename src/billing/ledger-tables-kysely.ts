import { CompiledQuery, sql, type Insertable } from 'kysely';
import { LIFETIME_DAY } from '../accounts/scope-usage.js';
import type { GenerationsTable } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { accountBalanceOf, usageOf, usageStatement, type AccountRow, type HoldSettlement, type LedgerEntry, type LedgerTables, type UsageRow } from './ledger-tables.js';
import { sumUnits } from './money.js';
import { reserveAndHoldStatement, settleHoldStatement, settleHoldsStatement } from './postgres-ledger-statements.js';

/**
 * The ledger's statements on PostgreSQL (money in TEXT columns is added as `numeric`, exactly):
 * through the query builder, but for the ones every request runs (postgres-ledger-statements.ts).
 * An account's row is locked by the conditional write that reserves or moves its money, run last
 * before the commit, or up front (`FOR NO KEY UPDATE`) where spend limits are judged.
 */
export function kyselyLedgerTables(tx: Db): LedgerTables {
  const insertGeneration = async (row: Insertable<GenerationsTable>): Promise<boolean> => {
    const inserted = await tx
      .insertInto('generations')
      .values(row)
      .onConflict((conflict) => conflict.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  };
  return {
    async lockAccount(accountId) {
      const [row] = (await tx.executeQuery<AccountRow>(CompiledQuery.raw(LOCK_ACCOUNT_SQL, [accountId]))).rows;
      return row ? accountBalanceOf(row) : null;
    },
    async readAccount(accountId) {
      const row = await tx.selectFrom('accounts').select(['balance_units', 'reserved_units']).where('id', '=', accountId).executeTakeFirst();
      return row ? accountBalanceOf(row) : null;
    },
    async writeAccount(accountId, next) {
      await tx
        .updateTable('accounts')
        .set({ balance_units: next.balance.toString(), reserved_units: next.reserved.toString() })
        .where('id', '=', accountId)
        .execute();
    },
    async usedIn(accountId, windows, parts) {
      const { text, values } = usageStatement(windows, (position) => `$${position}`, { accountId, parts });
      return usageOf((await tx.executeQuery<UsageRow>(CompiledQuery.raw(text, values))).rows, windows.length).used;
    },
    async reserveAndHold(holds, bound) {
      return holds.length === 0 || (await tx.executeQuery(reserveAndHoldStatement(holds, bound))).rows.length > 0;
    },
    async settleHold(settlement) {
      await tx.executeQuery(settleHoldStatement(settlement));
    },
    async settleHolds(settlements) {
      for (const part of distinctHolds(settlements)) {
        for (const [accountId, ofAccount] of byAccount(part)) await tx.executeQuery(settleHoldsStatement(accountId, ofAccount));
      }
    },
    insertGeneration,
    insertEntry: (entry) => insertEntry(tx, entry).execute().then(() => undefined),
    async moveMoney(accountId, change, charge) {
      const moved = {
        balance_units: sql<string>`(balance_units::numeric + ${change.balance.toString()}::numeric)::text`,
        reserved_units: sql<string>`(reserved_units::numeric + ${change.reserved.toString()}::numeric)::text`,
      };
      if (!charge) {
        await tx.updateTable('accounts').set(moved).where('id', '=', accountId).execute();
        return;
      }
      // one statement, one round trip. Its sub-statements run after the main one (which does not
      // read them), so the account's row is locked before the spend rows, as every settlement does
      const units = charge.amount.toString();
      const spend = Object.entries(charge.owners).flatMap(([scope, id]) =>
        [charge.dayStart, LIFETIME_DAY].map((day) => ({ scope, scope_id: id, day_start: day, amount_units: units })));
      await tx
        .with('spend', (db) => db
          .insertInto('spend_usage')
          .values(spend)
          .onConflict((conflict) => conflict.columns(['scope', 'scope_id', 'day_start']).doUpdateSet({
            amount_units: sql<string>`(spend_usage.amount_units::numeric + excluded.amount_units::numeric)::text`,
          })))
        .updateTable('accounts')
        .set(moved)
        .where('id', '=', accountId)
        .execute();
    },
  };
}

/** Not FOR UPDATE: that would also wait on (and deadlock with) the rows other holds insert referencing the account. */
const LOCK_ACCOUNT_SQL = 'SELECT balance_units, reserved_units FROM accounts WHERE id = $1 FOR NO KEY UPDATE';

function insertEntry(tx: Db, entry: LedgerEntry) {
  return tx.insertInto('ledger_entries').values({
    id: entry.id,
    account_id: entry.accountId,
    amount_units: entry.amount.toString(),
    kind: entry.kind,
    generation_id: entry.generationId,
    created_at: entry.at.getTime(),
  });
}

/**
 * The settlements in runs that each end different holds, in their order: a hold settled twice in
 * one batch is settled by the first, and the second, in the next run, finds it gone.
 */
function distinctHolds(settlements: readonly HoldSettlement[]): HoldSettlement[][] {
  const runs: HoldSettlement[][] = [[]];
  let holds = new Set<string>();
  for (const settlement of settlements) {
    if (holds.has(settlement.holdId)) {
      runs.push([]);
      holds = new Set();
    }
    holds.add(settlement.holdId);
    runs.at(-1)?.push(settlement);
  }
  return runs.filter((run) => run.length > 0);
}

/** The settlements of each account, in their order; accounts in the order of their ids, the order their rows are locked in. */
function byAccount(settlements: readonly HoldSettlement[]): Array<[string, HoldSettlement[]]> {
  const accounts = new Map<string, HoldSettlement[]>();
  for (const settlement of settlements) accounts.set(settlement.accountId, [...(accounts.get(settlement.accountId) ?? []), settlement]);
  return [...accounts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
