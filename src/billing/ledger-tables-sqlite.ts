import type BetterSqlite3 from 'better-sqlite3';
import type { Insertable } from 'kysely';
import type { GenerationsTable } from '../store/schema.js';
import { accountBalanceOf, keySpendStateOf, GENERATION_COLUMNS, SETTLED_COLUMNS, type AccountRow, type GenerationColumn, type KeySpendRow, type LedgerTables } from './ledger-tables.js';
import { sumUnits } from './money.js';

type Statement = BetterSqlite3.Statement;

/**
 * The ledger's statements prepared once per SQLite connection. They run inside the write batch's
 * transaction (SQLite's `BEGIN IMMEDIATE` already excludes every other writer, so no row locks),
 * synchronously: on the embedded engine the query builder would cost more than the statements.
 */
class SqliteLedgerStatements {
  readonly account: Statement;
  readonly writeAccount: Statement;
  readonly key: Statement;
  readonly chargedSince: Statement;
  readonly heldForKey: Statement;
  readonly insertHold: Statement;
  readonly deleteHold: Statement;
  readonly insertEntry: Statement;
  readonly keyUsageOn: Statement;
  readonly writeDayUsage: Statement;
  readonly writeKeyTotal: Statement;
  /** A generation row, every column bound by position (an absent value binds NULL). */
  readonly insertGeneration: Statement;
  /** A final record written over its pending row: the settled columns, then the id. */
  readonly closeGeneration: Statement;

  constructor(readonly database: BetterSqlite3.Database) {
    this.account = database.prepare('SELECT balance_units, reserved_units FROM accounts WHERE id = ?');
    this.writeAccount = database.prepare('UPDATE accounts SET balance_units = ?, reserved_units = ? WHERE id = ?');
    this.key = database.prepare('SELECT limit_units, limit_reset, usage_units FROM api_keys WHERE id = ?');
    this.chargedSince = database.prepare('SELECT amount_units FROM key_usage WHERE key_id = ? AND day_start >= ?').pluck();
    this.heldForKey = database.prepare('SELECT amount_units FROM holds WHERE key_id = ?').pluck();
    this.insertHold = database.prepare(
      'INSERT INTO holds (id, generation_id, account_id, workspace_id, key_id, amount_units, expires_at, created_at, instance_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.deleteHold = database.prepare('DELETE FROM holds WHERE id = ? RETURNING amount_units').pluck();
    this.insertEntry = database.prepare(
      'INSERT INTO ledger_entries (id, account_id, amount_units, kind, generation_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.keyUsageOn = database.prepare(
      'SELECT api_keys.usage_units AS total, key_usage.amount_units AS day FROM api_keys LEFT JOIN key_usage ON key_usage.key_id = api_keys.id AND key_usage.day_start = ? WHERE api_keys.id = ?',
    );
    this.writeDayUsage = database.prepare(
      'INSERT INTO key_usage (key_id, day_start, amount_units) VALUES (?, ?, ?) ON CONFLICT (key_id, day_start) DO UPDATE SET amount_units = excluded.amount_units',
    );
    this.writeKeyTotal = database.prepare('UPDATE api_keys SET usage_units = ? WHERE id = ?');
    this.insertGeneration = database.prepare(
      `INSERT INTO generations (${GENERATION_COLUMNS.join(', ')}) VALUES (${GENERATION_COLUMNS.map(() => '?').join(', ')}) ON CONFLICT (id) DO NOTHING`,
    );
    this.closeGeneration = database.prepare(
      `UPDATE generations SET ${SETTLED_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE id = ? AND status = 'pending'`,
    );
  }
}

const tablesByConnection = new WeakMap<BetterSqlite3.Database, LedgerTables>();

export function sqliteLedgerTables(database: BetterSqlite3.Database): LedgerTables {
  let tables = tablesByConnection.get(database);
  if (!tables) {
    tables = preparedTables(new SqliteLedgerStatements(database));
    tablesByConnection.set(database, tables);
  }
  return tables;
}

function preparedTables(statements: SqliteLedgerStatements): LedgerTables {
  return {
    async lockAccount(accountId) {
      const row = statements.account.get(accountId) as AccountRow | undefined;
      return row ? accountBalanceOf(row) : null;
    },
    async writeAccount(accountId, next) {
      statements.writeAccount.run(next.balance.toString(), next.reserved.toString(), accountId);
    },
    async keySpendState(keyId) {
      const key = statements.key.get(keyId) as KeySpendRow | undefined;
      return key ? keySpendStateOf(key) : null;
    },
    async chargedSince(keyId, dayStart) {
      return sumUnits(statements.chargedSince.all(keyId, dayStart) as string[]);
    },
    async heldForKey(keyId) {
      return sumUnits(statements.heldForKey.all(keyId) as string[]);
    },
    async insertHold(hold, at, pending) {
      statements.insertHold.run(
        hold.id,
        hold.generationId,
        hold.accountId,
        hold.workspaceId,
        hold.keyId,
        hold.amount.toString(),
        hold.expiresAt.getTime(),
        at.getTime(),
        pending.instance_id,
      );
      if (statements.insertGeneration.run(boundValues(pending, GENERATION_COLUMNS)).changes !== 1) throw new Error(`generation ${hold.generationId} already recorded`);
    },
    async deleteHold(holdId) {
      const amount = statements.deleteHold.get(holdId) as string | undefined;
      return amount === undefined ? null : BigInt(amount);
    },
    async insertGeneration(row: Insertable<GenerationsTable>) {
      return statements.insertGeneration.run(boundValues(row, GENERATION_COLUMNS)).changes === 1;
    },
    async closeGeneration(row: Insertable<GenerationsTable>) {
      const settled = boundValues(row, SETTLED_COLUMNS);
      settled.push(row.id);
      if (statements.closeGeneration.run(settled).changes === 1) return true;
      return statements.insertGeneration.run(boundValues(row, GENERATION_COLUMNS)).changes === 1;
    },
    async insertEntry(entry) {
      statements.insertEntry.run(entry.id, entry.accountId, entry.amount.toString(), entry.kind, entry.generationId, entry.at.getTime());
    },
    async keyUsageOn(keyId, dayStart) {
      const row = statements.keyUsageOn.get(dayStart, keyId) as { total: string; day: string | null } | undefined;
      return row ? { total: BigInt(row.total), day: BigInt(row.day ?? '0') } : null;
    },
    async writeKeyUsage(keyId, dayStart, usage) {
      statements.writeDayUsage.run(keyId, dayStart, usage.day.toString());
      statements.writeKeyTotal.run(usage.total.toString(), keyId);
    },
  };
}

/** A row's values for `columns`, by position; an absent value binds NULL. */
function boundValues(row: Insertable<GenerationsTable>, columns: readonly GenerationColumn[]): unknown[] {
  return columns.map((column) => row[column] ?? null);
}
