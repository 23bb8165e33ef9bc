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
    async settleHold({ holdId, accountId, record, charge }) {
      // one statement, one round trip. Its sub-statements run as the final UPDATE reads them (the
      // hold, then the generation), the entry and the spend rows after it: the account's row is
      // locked before the spend rows, as every settlement does
      const value = (column: keyof GenerationsTable) => sql`${record[column] ?? null}`;
      const ended = sql`
        released AS (DELETE FROM holds WHERE id = ${holdId} RETURNING amount_units),
        closed AS (
          UPDATE generations SET ${sql.join(SETTLED_COLUMNS.map((column) => sql`${sql.ref(column)} = ${value(column)}`))}
          WHERE id = ${record.id} AND status = 'pending' RETURNING id
        ),
        inserted AS (
          INSERT INTO generations (${sql.join(GENERATION_COLUMNS.map((column) => sql.ref(column)))})
          SELECT ${sql.join(GENERATION_COLUMNS.map(value))} WHERE NOT EXISTS (SELECT 1 FROM closed)
          ON CONFLICT (id) DO NOTHING RETURNING id
        )`;
      const reserve = sql`(reserved_units::numeric - COALESCE((SELECT amount_units::numeric FROM released), 0))::text`;
      if (!charge) {
        await sql`
          WITH ${ended}
          UPDATE accounts SET reserved_units = ${reserve}
          WHERE id = ${accountId} AND EXISTS (SELECT 1 FROM released)`.execute(tx);
        return;
      }
      const { entry, owners, dayStart } = charge;
      const units = entry.amount.toString();
      const spendRows = Object.entries(owners).flatMap(([scope, id]) => [dayStart, LIFETIME_DAY].map((day) => sql`(${scope}, ${id}, ${day}::bigint)`));
      await sql`
        WITH ${ended},
        charged AS (
          SELECT ${units}::numeric AS amount WHERE EXISTS (SELECT 1 FROM closed) OR EXISTS (SELECT 1 FROM inserted)
        ),
        entry AS (
          INSERT INTO ledger_entries (id, account_id, amount_units, kind, generation_id, created_at)
          SELECT ${entry.id}, ${accountId}, ${units}, ${entry.kind}, ${entry.generationId}, ${entry.at.getTime()} FROM charged
        ),
        spend AS (
          INSERT INTO spend_usage (scope, scope_id, day_start, amount_units)
          SELECT owner.scope, owner.scope_id, owner.day_start, ${units} FROM charged, (VALUES ${sql.join(spendRows)}) AS owner (scope, scope_id, day_start)
          ON CONFLICT (scope, scope_id, day_start) DO UPDATE SET amount_units = (spend_usage.amount_units::numeric + excluded.amount_units::numeric)::text
        )
        UPDATE accounts SET
          balance_units = (balance_units::numeric - COALESCE((SELECT amount FROM charged), 0))::text,
          reserved_units = ${reserve}
        WHERE id = ${accountId} AND (EXISTS (SELECT 1 FROM released) OR EXISTS (SELECT 1 FROM charged))`.execute(tx);
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
