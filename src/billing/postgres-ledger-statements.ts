import { CompiledQuery, type Insertable } from 'kysely';
import { LIFETIME_DAY } from '../accounts/scope-usage.js';
import type { GenerationsTable } from '../store/schema.js';
import { GENERATION_COLUMNS, generationValues, SETTLED_COLUMNS, type HeldGeneration, type HoldSettlement, type LimitBound } from './ledger-tables.js';
import { storableJsonText } from '../store/storable-text.js';

/**
 * The two statements every request runs on PostgreSQL (its hold, its settlement), written out with
 * positional parameters rather than built by the query builder on each request: building them was
 * a sixth of the gateway's time there. Each variant's text is the same on every call, so the
 * connection prepares it once (postgres-engine.ts names statements).
 */

/** Parameters in the order their `$n` appear in the text. */
class Parameters {
  readonly values: unknown[] = [];

  /** The placeholder of `value`, added as the next parameter. */
  add(value: unknown): string {
    this.values.push(value ?? null);
    return `$${this.values.length}`;
  }

  list(values: readonly unknown[]): string {
    return values.map((value) => this.add(value)).join(', ');
  }
}

/** A spend row's amount added to, where the row already exists. */
const ADD_TO_SPEND = 'ON CONFLICT (scope, scope_id, day_start) DO UPDATE SET amount_units = (spend_usage.amount_units::numeric + excluded.amount_units::numeric)::text';

/**
 * What a closed pending row returns of its hold: the settlement leaves those columns as they were,
 * so the row still says whether its hold was open. Read by the UPDATE itself, they are the row's
 * latest version: a reconciler that released the hold first (clearing its expiry) is seen.
 */
const HELD = 'generations.hold_id, generations.held_units, generations.hold_expires_at';

/** A closed row whose hold was still open, and is the hold being settled: its reserve is given back. */
const STILL_HELD = 'hold_expires_at IS NOT NULL AND hold_id = settled_hold';

const GENERATION_COLUMN_LIST = GENERATION_COLUMNS.map((column) => `"${column}"`).join(', ');

/**
 * Reserves the holds' total, then inserts each pending generation, its hold with it, from the row
 * the conditional reserve returned: a balance that does not cover the total changes nothing (no row
 * back), nor does a `bound` window whose charges plus the reserve plus the total would pass its
 * limit (`used + max(total, 1) <= limit` is `withinBounds` in integer units). A hold alone binds its
 * row's values one by one; several bind their rows as one JSON array read as the table's own row
 * type, so the text is the same however many there are and the connection prepares it once (with
 * one text per number of holds, most calls were planned afresh, which took as long as running them).
 */
export function reserveAndHoldStatement(holds: readonly HeldGeneration[], bound: readonly LimitBound[] = []): CompiledQuery {
  const p = new Parameters();
  const total = p.add(holds.reduce((sum, { hold }) => sum + hold.amount, 0n).toString());
  const within = bound.map(({ ref, start, limit }) => {
    const day = start === null ? `day_start = ${LIFETIME_DAY}` : `day_start >= ${p.add(start)}::bigint`;
    const charged = `COALESCE((SELECT SUM(amount_units::numeric) FROM spend_usage WHERE scope = ${p.add(ref.scope)} AND scope_id = ${p.add(ref.id)} AND ${day}), 0)`;
    return `
        AND ${charged} + reserved_units::numeric + GREATEST(${total}::numeric, 1) <= ${p.add(limit.toString())}::numeric`;
  });
  const accountId = holds[0]?.hold.accountId;
  const account = p.add(accountId);
  const [only] = holds;
  const inserted = only && holds.length === 1
    ? `SELECT ${p.list(generationValues(only.pending))} FROM reserved`
    : `SELECT ${GENERATION_COLUMNS.map((column) => `pending."${column}"`).join(', ')}
      FROM reserved, jsonb_populate_recordset(NULL::generations, ${p.add(storableJsonText(holds.map(({ pending }) => pending)))}::jsonb) AS pending`;
  const text = `WITH reserved AS (
      UPDATE accounts SET reserved_units = (reserved_units::numeric + ${total}::numeric)::text
      WHERE id = ${account} AND balance_units::numeric - reserved_units::numeric >= ${total}::numeric${within.join('')}
      RETURNING id
    ),
    written AS (INSERT INTO generations (${GENERATION_COLUMN_LIST}) ${inserted})
    SELECT id FROM reserved`;
  return CompiledQuery.raw(text, p.values);
}

/**
 * The settlement of one hold (see LedgerTables.settleHold). Its sub-statements run as the final
 * UPDATE reads them (the generation, which carries the hold), the spend rows after it: the
 * account's row is locked before the spend rows, as every settlement does.
 */
export function settleHoldStatement({ holdId, accountId, record, charge }: HoldSettlement): CompiledQuery {
  const p = new Parameters();
  const ended = endedHold(p, holdId, record);
  const reserve = '(reserved_units::numeric - COALESCE((SELECT amount_units::numeric FROM released), 0))::text';
  if (!charge) {
    const text = `WITH ${ended}
      UPDATE accounts SET reserved_units = ${reserve}
      WHERE id = ${p.add(accountId)} AND EXISTS (SELECT 1 FROM released)`;
    return CompiledQuery.raw(text, p.values);
  }
  const { owners, dayStart } = charge;
  const amount = charge.amount.toString();
  const account = p.add(accountId);
  const spendRows = Object.entries(owners).flatMap(([scope, id]) => [dayStart, LIFETIME_DAY].map((day) => `(${p.add(scope)}, ${p.add(id)}, ${p.add(day)}::bigint)`));
  const text = `WITH ${ended},
    charged AS (
      SELECT ${p.add(amount)}::numeric AS amount WHERE ${WRITTEN}
    ),
    spend AS (
      INSERT INTO spend_usage (scope, scope_id, day_start, amount_units)
      SELECT owner.scope, owner.scope_id, owner.day_start, ${p.add(amount)} FROM charged, (VALUES ${spendRows.join(', ')}) AS owner (scope, scope_id, day_start)
      ${ADD_TO_SPEND}
    )
    UPDATE accounts SET
      balance_units = (balance_units::numeric - COALESCE((SELECT amount FROM charged), 0))::text,
      reserved_units = ${reserve}
    WHERE id = ${account} AND (EXISTS (SELECT 1 FROM released) OR EXISTS (SELECT 1 FROM charged))`;
  return CompiledQuery.raw(text, p.values);
}

/**
 * Several settlements of one account, ending different holds, in one statement (see
 * LedgerTables.settleHolds): each hold deleted, each record written once, and where a settlement
 * wrote its record, its charge taken; then the money of all of them moved at once, one
 * write of the account's row (less every charge taken, and the reserve of every hold still there)
 * and one of each spend row, summed. The settlements are one JSON array parameter (each a
 * generation row, typed by the table's own row type, under `record`, with its hold and charge beside it), so the
 * text is the same whatever their number. As in `settleHoldStatement`, the account's row is
 * written by the main statement, before the spend rows.
 */
export function settleHoldsStatement(accountId: string, settlements: readonly HoldSettlement[]): CompiledQuery {
  // every item one shape, the row nested: copying a row's members into an object with the others
  // beside them made it a dictionary, about 15 µs an item to build and write out as JSON
  const items = settlements.map(({ holdId, record, charge }) => ({
    record,
    settled_hold: holdId,
    charge_amount: charge ? charge.amount.toString() : null,
    owner_key: charge ? charge.owners.key : null,
    owner_workspace: charge ? charge.owners.workspace : null,
    owner_account: charge ? charge.owners.account : null,
    spend_day: charge ? charge.dayStart : null,
  }));
  return CompiledQuery.raw(SETTLE_HOLDS_SQL, [storableJsonText(items), accountId]);
}

/** A charged settlement's spend rows: each owner's UTC day and its lifetime total. */
const SPEND_ROWS = (['key', 'workspace', 'account'] as const)
  .flatMap((scope) => [`('${scope}', charged.owner_${scope}, charged.spend_day)`, `('${scope}', charged.owner_${scope}, ${LIFETIME_DAY}::bigint)`])
  .join(', ');

/** What each settlement carries beside its record (see `settleHoldsStatement`), as the statement reads it. */
const SETTLEMENT_MEMBERS = { settled_hold: 'text', charge_amount: 'text', owner_key: 'text', owner_workspace: 'text', owner_account: 'text', spend_day: 'bigint' };

// every column named rather than `*`: a statement reading `*` runs unprepared (postgres-engine.ts),
// and this one, planned on every call, spent a third as long being planned as being run
const SETTLE_HOLDS_SQL = `WITH input AS (
    SELECT item.n, ${Object.keys(SETTLEMENT_MEMBERS).map((member) => `extra.${member}`).join(', ')}, ${GENERATION_COLUMNS.map((column) => `settled."${column}"`).join(', ')}
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS item (value, n),
      jsonb_populate_record(NULL::generations, item.value->'record') AS settled,
      jsonb_to_record(item.value) AS extra (${Object.entries(SETTLEMENT_MEMBERS).map(([member, type]) => `${member} ${type}`).join(', ')})
  ),
  closed AS (
    UPDATE generations SET ${SETTLED_COLUMNS.map((column) => `"${column}" = input."${column}"`).join(', ')}
    FROM input WHERE generations.id = input.id AND generations.status = 'pending'
    RETURNING input.n, ${HELD}, input.settled_hold
  ),
  released AS (SELECT held_units AS amount_units FROM closed WHERE ${STILL_HELD}),
  inserted AS (
    INSERT INTO generations (${GENERATION_COLUMN_LIST}) SELECT ${GENERATION_COLUMNS.map((column) => `input."${column}"`).join(', ')}
    FROM input WHERE input.n NOT IN (SELECT n FROM closed)
    ON CONFLICT (id) DO NOTHING RETURNING id
  ),
  charged AS (
    SELECT input.charge_amount, input.owner_key, input.owner_workspace, input.owner_account, input.spend_day FROM input
    WHERE input.charge_amount IS NOT NULL AND (input.n IN (SELECT n FROM closed) OR input.id IN (SELECT id FROM inserted))
  ),
  spend AS (
    INSERT INTO spend_usage (scope, scope_id, day_start, amount_units)
    SELECT owner.scope, owner.scope_id, owner.day_start, sum(charged.charge_amount::numeric)::text
    FROM charged, LATERAL (VALUES ${SPEND_ROWS}) AS owner (scope, scope_id, day_start)
    GROUP BY owner.scope, owner.scope_id, owner.day_start
    ${ADD_TO_SPEND}
  )
  UPDATE accounts SET
    balance_units = (balance_units::numeric - COALESCE((SELECT sum(charge_amount::numeric) FROM charged), 0))::text,
    reserved_units = (reserved_units::numeric - COALESCE((SELECT sum(amount_units::numeric) FROM released), 0))::text
  WHERE id = $2 AND (EXISTS (SELECT 1 FROM released) OR EXISTS (SELECT 1 FROM charged))`;

/** True in a settlement's statement once it wrote the generation's record (over its pending row, or whole). */
const WRITTEN = '(EXISTS (SELECT 1 FROM closed) OR EXISTS (SELECT 1 FROM inserted))';

/** The record written over its pending row (`closed`) and its hold ended (`released`, where it was still open), or the record written whole where there was no row (`inserted`). */
function endedHold(p: Parameters, holdId: string, record: Insertable<GenerationsTable>): string {
  return `closed AS (
      UPDATE generations SET ${SETTLED_COLUMNS.map((column) => `"${column}" = ${p.add(record[column])}`).join(', ')}
      WHERE id = ${p.add(record.id)} AND status = 'pending' RETURNING ${HELD}, ${p.add(holdId)}::text AS settled_hold
    ),
    released AS (SELECT held_units AS amount_units FROM closed WHERE ${STILL_HELD}),
    inserted AS (
      INSERT INTO generations (${GENERATION_COLUMN_LIST}) SELECT ${p.list(generationValues(record))}
      WHERE NOT EXISTS (SELECT 1 FROM closed)
      ON CONFLICT (id) DO NOTHING RETURNING id
    )`;
}
