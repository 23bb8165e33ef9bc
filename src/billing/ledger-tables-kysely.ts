import { sql, type Insertable, type Updateable } from 'kysely';
import { LIFETIME_DAY } from '../accounts/scope-usage.js';
import type { GenerationsTable } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { accountBalanceOf, GENERATION_COLUMNS, HOLD_OWNER_COLUMN, SETTLED_COLUMNS, type LedgerEntry, type LedgerTables } from './ledger-tables.js';
import { sumUnits } from './money.js';

/**
 * The ledger's statements through the query builder (PostgreSQL, where money in TEXT columns is added
 * as `numeric`, exactly). An account's row is locked by the conditional write that reserves or moves
 * its money, run last before the commit, or up front (`FOR NO KEY UPDATE`) where spend limits are judged.
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
      const row = await tx
        .selectFrom('accounts')
        .select(['balance_units', 'reserved_units'])
        .where('id', '=', accountId)
        // not FOR UPDATE: that would also wait on (and deadlock with) the rows other holds insert referencing the account
        .forNoKeyUpdate()
        .executeTakeFirst();
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
    async chargedSince(ref, dayStart) {
      const days = await tx
        .selectFrom('spend_usage')
        .select('amount_units')
        .where('scope', '=', ref.scope)
        .where('scope_id', '=', ref.id)
        .$if(dayStart === null, (query) => query.where('day_start', '=', LIFETIME_DAY))
        .$if(dayStart !== null, (query) => query.where('day_start', '>=', dayStart ?? 0))
        .execute();
      return sumUnits(days.map((day) => day.amount_units));
    },
    async heldSince(ref, since) {
      const holds = await tx
        .selectFrom('holds')
        .select('amount_units')
        .where(HOLD_OWNER_COLUMN[ref.scope], '=', ref.id)
        .$if(since !== null, (query) => query.where('created_at', '>=', since ?? 0))
        .execute();
      return sumUnits(holds.map((hold) => hold.amount_units));
    },
    async reserveAndHold(hold, at, pending) {
      // one statement: the hold and its pending generation are inserted only from the row the
      // conditional reserve returns, so a balance that does not cover it changes nothing
      const amount = hold.amount.toString();
      const row: Record<string, unknown> = pending;
      const written = await tx
        .with('reserved', (db) => db
          .updateTable('accounts')
          .set({ reserved_units: sql<string>`(reserved_units::numeric + ${amount}::numeric)::text` })
          .where('id', '=', hold.accountId)
          .where(sql<boolean>`balance_units::numeric - reserved_units::numeric >= ${amount}::numeric`)
          .returning('id'))
        .with('hold', (db) => db
          .insertInto('holds')
          .columns(['id', 'generation_id', 'account_id', 'workspace_id', 'key_id', 'amount_units', 'expires_at', 'created_at', 'instance_id'])
          .expression(db.selectFrom('reserved').select((eb) => [
            eb.val(hold.id).as('id'),
            eb.val(hold.generationId).as('generation_id'),
            eb.val(hold.accountId).as('account_id'),
            eb.val(hold.workspaceId).as('workspace_id'),
            eb.val(hold.keyId).as('key_id'),
            eb.val(amount).as('amount_units'),
            eb.val(hold.expiresAt.getTime()).as('expires_at'),
            eb.val(at.getTime()).as('created_at'),
            eb.val(pending.instance_id).as('instance_id'),
          ])))
        .insertInto('generations')
        .columns(GENERATION_COLUMNS)
        .expression((db) => db.selectFrom('reserved').select((eb) => GENERATION_COLUMNS.map((column) => eb.val(row[column] ?? null).as(column))))
        .returning('id')
        .executeTakeFirst();
      return written !== undefined;
    },
    async endHold(holdId, row) {
      // one statement, one round trip: the hold deleted and the pending record closed
      const settled = Object.fromEntries(SETTLED_COLUMNS.map((column) => [column, row[column] ?? null])) as Updateable<GenerationsTable>;
      const ended = await tx
        .with('released', (db) => db.deleteFrom('holds').where('id', '=', holdId).returning('amount_units'))
        .with('closed', (db) => db.updateTable('generations').set(settled).where('id', '=', row.id).where('status', '=', 'pending').returning('id'))
        .selectNoFrom((eb) => [
          eb.selectFrom('released').select('amount_units').as('released'),
          eb.selectFrom('closed').select((count) => count.fn.countAll<string>().as('closed')).as('closed'),
        ])
        .executeTakeFirstOrThrow();
      const written = Number(ended.closed) > 0 || (await insertGeneration(row));
      return { released: ended.released === null ? null : BigInt(ended.released), written };
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
      const units = charge.entry.amount.toString();
      const spend = Object.entries(charge.owners).flatMap(([scope, id]) =>
        [charge.dayStart, LIFETIME_DAY].map((day) => ({ scope, scope_id: id, day_start: day, amount_units: units })));
      await tx
        .with('entry', () => insertEntry(tx, charge.entry))
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
