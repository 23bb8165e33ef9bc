import type BetterSqlite3 from 'better-sqlite3';
import type { Insertable } from 'kysely';
import type { GenerationsTable } from '../store/schema.js';
import { accountBalanceOf, keySpendStateOf, ADMITTED_COLUMNS, type AccountRow, type KeySpendRow, type LedgerTables } from './ledger-tables.js';
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
  /** Generation inserts and settlements by column list: the record's columns are fixed, so there are few in practice. */
  readonly #insertGeneration = new Map<string, Statement>();
  readonly #closeGeneration = new Map<string, Statement>();

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
  }

  insertGeneration(columns: readonly string[]): Statement {
    const list = columns.join(', ');
    let statement = this.#insertGeneration.get(list);
    if (!statement) {
      const values = columns.map((column) => `@${column}`).join(', ');
      statement = this.database.prepare(`INSERT INTO generations (${list}) VALUES (${values}) ON CONFLICT (id) DO NOTHING`);
      this.#insertGeneration.set(list, statement);
    }
    return statement;
  }

  /** Writes the given columns, but those its admission fixed, over a pending generation (`id` names it). */
  closeGeneration(columns: readonly string[]): Statement {
    const list = columns.join(', ');
    let statement = this.#closeGeneration.get(list);
    if (!statement) {
      const settled = columns.filter((column) => !ADMITTED_COLUMNS.has(column)).map((column) => `${column} = @${column}`);
      statement = this.database.prepare(`UPDATE generations SET ${settled.join(', ')} WHERE id = @id AND status = 'pending'`);
      this.#closeGeneration.set(list, statement);
    }
    return statement;
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
      const values = boundValues(pending);
      if (statements.insertGeneration(Object.keys(values)).run(values).changes !== 1) throw new Error(`generation ${hold.generationId} already recorded`);
    },
    async deleteHold(holdId) {
      const amount = statements.deleteHold.get(holdId) as string | undefined;
      return amount === undefined ? null : BigInt(amount);
    },
    async insertGeneration(row: Insertable<GenerationsTable>) {
      const values = boundValues(row);
      return statements.insertGeneration(Object.keys(values)).run(values).changes === 1;
    },
    async closeGeneration(row: Insertable<GenerationsTable>) {
      const values = boundValues(row);
      const columns = Object.keys(values);
      if (statements.closeGeneration(columns).run(values).changes === 1) return true;
      return statements.insertGeneration(columns).run(values).changes === 1;
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

/** A row's values as named parameters; an absent value binds NULL. */
function boundValues(row: Insertable<GenerationsTable>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) values[column] = value ?? null;
  return values;
}
