import type { Insertable, Updateable } from 'kysely';
import type { GenerationsTable } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { accountBalanceOf, keySpendStateOf, SETTLED_COLUMNS, type LedgerTables } from './ledger-tables.js';
import { sumUnits } from './money.js';

/** The ledger's statements through the query builder, rows locked with `FOR UPDATE` (PostgreSQL). */
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
      const row = await tx
        .selectFrom('accounts')
        .select(['balance_units', 'reserved_units'])
        .where('id', '=', accountId)
        .forUpdate()
        .executeTakeFirst();
      return row ? accountBalanceOf(row) : null;
    },
    async writeAccount(accountId, next) {
      await tx
        .updateTable('accounts')
        .set({ balance_units: next.balance.toString(), reserved_units: next.reserved.toString() })
        .where('id', '=', accountId)
        .execute();
    },
    async keySpendState(keyId) {
      const key = await tx
        .selectFrom('api_keys')
        .select(['limit_units', 'limit_reset', 'usage_units'])
        .where('id', '=', keyId)
        .executeTakeFirst();
      return key ? keySpendStateOf(key) : null;
    },
    async chargedSince(keyId, dayStart) {
      const days = await tx
        .selectFrom('key_usage')
        .select('amount_units')
        .where('key_id', '=', keyId)
        .where('day_start', '>=', dayStart)
        .execute();
      return sumUnits(days.map((day) => day.amount_units));
    },
    async heldForKey(keyId) {
      const holds = await tx.selectFrom('holds').select('amount_units').where('key_id', '=', keyId).execute();
      return sumUnits(holds.map((hold) => hold.amount_units));
    },
    async insertHold(hold, at, pending) {
      // one statement, one round trip: the hold and its pending generation
      await tx
        .with('hold', (db) =>
          db.insertInto('holds').values({
            id: hold.id,
            generation_id: hold.generationId,
            account_id: hold.accountId,
            workspace_id: hold.workspaceId,
            key_id: hold.keyId,
            amount_units: hold.amount.toString(),
            expires_at: hold.expiresAt.getTime(),
            created_at: at.getTime(),
            instance_id: pending.instance_id,
          }),
        )
        .insertInto('generations')
        .values(pending)
        .execute();
    },
    async deleteHold(holdId) {
      const row = await tx.deleteFrom('holds').where('id', '=', holdId).returning('amount_units').executeTakeFirst();
      return row ? BigInt(row.amount_units) : null;
    },
    insertGeneration,
    async closeGeneration(row) {
      const settled = Object.fromEntries(SETTLED_COLUMNS.map((column) => [column, row[column] ?? null])) as Updateable<GenerationsTable>;
      const updated = await tx
        .updateTable('generations')
        .set(settled)
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return updated.numUpdatedRows > 0n || insertGeneration(row);
    },
    async insertEntry(entry) {
      await tx
        .insertInto('ledger_entries')
        .values({
          id: entry.id,
          account_id: entry.accountId,
          amount_units: entry.amount.toString(),
          kind: entry.kind,
          generation_id: entry.generationId,
          created_at: entry.at.getTime(),
        })
        .execute();
    },
    async keyUsageOn(keyId, dayStart) {
      const row = await tx
        .selectFrom('api_keys')
        .leftJoin('key_usage', (join) => join.onRef('key_usage.key_id', '=', 'api_keys.id').on('key_usage.day_start', '=', dayStart))
        .select(['api_keys.usage_units', 'key_usage.amount_units'])
        .where('api_keys.id', '=', keyId)
        .executeTakeFirst();
      return row ? { total: BigInt(row.usage_units), day: BigInt(row.amount_units ?? '0') } : null;
    },
    async writeKeyUsage(keyId, dayStart, usage) {
      const day = usage.day.toString();
      await tx
        .insertInto('key_usage')
        .values({ key_id: keyId, day_start: dayStart, amount_units: day })
        .onConflict((conflict) => conflict.columns(['key_id', 'day_start']).doUpdateSet({ amount_units: day }))
        .execute();
      await tx.updateTable('api_keys').set({ usage_units: usage.total.toString() }).where('id', '=', keyId).execute();
    },
  };
}
