import type BetterSqlite3 from 'better-sqlite3';
import type { Insertable } from 'kysely';
import type { GenerationsTable } from '../store/schema.js';
import { accountBalanceOf, GENERATION_COLUMNS, generationValues, SETTLED_COLUMNS, usageOf, usageStatement, withinBounds, type AccountRow, type AccountBalance, type Charge, type HoldSettlement, type LedgerEntry, type LedgerTables, type PendingGenerationRow, type UsageRow, type UsageWindow } from './ledger-tables.js';
import { MoneyMoves, type SpendMove } from './money-moves.js';
import { MoneyReadCache } from './money-read-cache.js';
import type { Units } from './money.js';

type Statement = BetterSqlite3.Statement;

/**
 * Most spend rows one statement adds to: a settlement's six (three scopes, each its day and its
 * lifetime) and those of a group of settlements, in statements of a few text lengths.
 */
const SPEND_ROWS_PER_STATEMENT = 24;

/** The hold a settled row carries, as the settlement left it (see `PENDING_COLUMNS`). */
interface SettledRow {
  hold_id: string | null;
  held_units: string | null;
  hold_expires_at: number | null;
}

/**
 * The ledger's statements prepared once per SQLite connection. They run inside the write batch's
 * transaction (SQLite's `BEGIN IMMEDIATE` already excludes every other writer, so no row locks),
 * synchronously: on the embedded engine the query builder would cost more than the statements.
 */
class SqliteLedgerStatements {
  readonly #account: Statement;
  readonly #writeAccount: Statement;
  /** The usage statements (`usageStatement`), prepared once per text. */
  readonly #usage = new Map<string, Statement>();
  readonly insertEntry: Statement;
  /** Spend rows (scope, owner, day) added to by `units_add`, one statement per number of rows. */
  readonly #addSpend = new Map<number, Statement>();
  /** Balances and usage as last read or written (every write of them goes through this class). */
  readonly #cache: MoneyReadCache;
  /** A generation row, every column bound by position (an absent value binds NULL). */
  readonly insertGeneration: Statement;
  /**
   * A final record, every column bound by position: written whole where no row exists, else its
   * settled columns over the pending row; nothing over a row already settled (no change counted).
   */
  readonly #settleGeneration: Statement;
  /** The same, returning the hold the row carries (`SettledRow`); nothing over a row already settled. */
  readonly #settleHeldGeneration: Statement;

  constructor(readonly database: BetterSqlite3.Database) {
    this.#account = database.prepare('SELECT balance_units, reserved_units FROM accounts WHERE id = ?');
    this.#writeAccount = database.prepare('UPDATE accounts SET balance_units = ?, reserved_units = ? WHERE id = ?');
    this.insertEntry = database.prepare(
      'INSERT INTO ledger_entries (id, account_id, amount_units, kind, generation_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.insertGeneration = database.prepare(
      `INSERT INTO generations (${GENERATION_COLUMNS.join(', ')}) VALUES (${GENERATION_COLUMNS.map(() => '?').join(', ')}) ON CONFLICT (id) DO NOTHING`,
    );
    const settle = `INSERT INTO generations (${GENERATION_COLUMNS.join(', ')}) VALUES (${GENERATION_COLUMNS.map(() => '?').join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${SETTLED_COLUMNS.map((column) => `${column} = excluded.${column}`).join(', ')} WHERE generations.status = 'pending'`;
    this.#settleGeneration = database.prepare(settle);
    this.#settleHeldGeneration = database.prepare(`${settle} RETURNING hold_id, held_units, hold_expires_at`);
    this.#cache = new MoneyReadCache(database);
  }

  /** The account's balance (null: no such account). */
  account(accountId: string): AccountBalance | null {
    const remembered = this.#cache.read(accountId, []);
    if (remembered?.account) return remembered.account;
    const row = this.#account.get(accountId) as AccountRow | undefined;
    if (!row) return null;
    const account = accountBalanceOf(row);
    this.#cache.wroteAccount(accountId, account);
    return account;
  }

  writeAccount(accountId: string, next: AccountBalance): void {
    this.#writeAccount.run(next.balance.toString(), next.reserved.toString(), accountId);
    this.#cache.wroteAccount(accountId, next);
  }

  /** Adds to spend rows, each written where it is not yet: one statement for up to `SPEND_ROWS_PER_STATEMENT` of them. */
  addSpend(moves: readonly SpendMove[]): void {
    for (let start = 0; start < moves.length; start += SPEND_ROWS_PER_STATEMENT) {
      const part = moves.slice(start, start + SPEND_ROWS_PER_STATEMENT);
      const values: unknown[] = [];
      for (const { scope, owner, day, units } of part) values.push(scope, owner, day, units.toString());
      this.#spendStatement(part.length).run(values);
    }
    for (const { scope, owner, day, units } of moves) this.#cache.addedSpend(scope, owner, day, units);
  }

  #spendStatement(rows: number): Statement {
    let statement = this.#addSpend.get(rows);
    if (!statement) {
      statement = this.database.prepare(
        `INSERT INTO spend_usage (scope, scope_id, day_start, amount_units) VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?)').join(', ')}
         ON CONFLICT (scope, scope_id, day_start) DO UPDATE SET amount_units = units_add(spend_usage.amount_units, excluded.amount_units)`,
      );
      this.#addSpend.set(rows, statement);
    }
    return statement;
  }

  /**
   * Settlements' final records, each written once (see `#settleGeneration`): for each, whether this
   * wrote it, and the reserve its hold gives back (the hold its pending row carried, if still open
   * in the database). Only where a hold is open in the database are the rows read back: reading
   * them back made the statement about half as dear again, and a single process keeps its holds in
   * memory.
   */
  settleGenerations(settlements: readonly HoldSettlement[]): Array<{ written: boolean; released: Units }> {
    if (!this.#cache.holdsStored()) {
      return settlements.map(({ record }) => ({ written: this.#settleGeneration.run(generationValues(record)).changes === 1, released: 0n }));
    }
    return settlements.map(({ holdId, record }) => {
      const settled = this.#settleHeldGeneration.get(generationValues(record)) as SettledRow | undefined;
      const open = settled !== undefined && settled.hold_expires_at !== null && settled.hold_id === holdId;
      return { written: settled !== undefined, released: open ? BigInt(settled.held_units ?? '0') : 0n };
    });
  }

  /** A pending generation written with the hold it carries, reserved in the database. */
  insertHeld(pending: PendingGenerationRow): void {
    if (this.insertGeneration.run(generationValues(pending)).changes !== 1) throw new Error(`generation ${pending.id} already recorded`);
    this.#cache.wroteHold();
  }

  /**
   * What each window (each of one of the account's scopes) used, and the account's balance:
   * remembered, or read in one statement.
   */
  usage(windows: readonly UsageWindow[], accountId: string): { account: AccountBalance | null; used: Units[] } {
    const remembered = this.#cache.read(accountId, windows);
    if (remembered) return remembered;
    const read = this.#readUsage(windows, { accountId, parts: 'charges and holds', balance: true });
    this.#cache.remember(accountId, read.account, windows, read.used);
    return read;
  }

  /** What each window's scope was charged in it, read in one statement (not remembered; no windows, no statement). */
  charges(accountId: string, windows: readonly UsageWindow[]): Units[] {
    if (windows.length === 0) return [];
    return this.#readUsage(windows, { accountId, parts: 'charges' }).used;
  }

  #readUsage(windows: readonly UsageWindow[], options: Parameters<typeof usageStatement>[2]): { account: AccountBalance | null; used: Units[] } {
    const { text, values } = usageStatement(windows, () => '?', options);
    let statement = this.#usage.get(text);
    if (!statement) {
      statement = this.database.prepare(text);
      this.#usage.set(text, statement);
    }
    return usageOf(statement.all(values) as UsageRow[], windows.length);
  }
}

const preparedByConnection = new WeakMap<BetterSqlite3.Database, { statements: SqliteLedgerStatements; tables: LedgerTables }>();

function prepared(database: BetterSqlite3.Database): { statements: SqliteLedgerStatements; tables: LedgerTables } {
  let found = preparedByConnection.get(database);
  if (!found) {
    const statements = new SqliteLedgerStatements(database);
    found = { statements, tables: preparedTables(statements) };
    preparedByConnection.set(database, found);
  }
  return found;
}

export function sqliteLedgerTables(database: BetterSqlite3.Database): LedgerTables {
  return prepared(database).tables;
}

/** What a hold reads, answered at once: the same statements, run without waiting on anything. */
export interface LedgerReadsNow {
  /** The account's balance (null: no such account) and what each window used, in one read. */
  accountAndUsage(accountId: string, windows: readonly UsageWindow[]): { account: AccountBalance | null; used: Units[] };
}

/**
 * The ledger's reads on the SQLite connection, synchronous, so that a decision read from them and
 * acted on in memory cannot interleave with another (holds kept in this process, see process-holds.ts).
 */
export function sqliteLedgerReadsNow(database: BetterSqlite3.Database): LedgerReadsNow {
  const { statements } = prepared(database);
  return {
    // no limits: the account's row alone, by its own statement
    accountAndUsage: (accountId, windows) =>
      windows.length === 0 ? { account: statements.account(accountId), used: [] } : statements.usage(windows, accountId),
  };
}

function preparedTables(statements: SqliteLedgerStatements): LedgerTables {
  // no row locks on SQLite: the write batch's transaction excludes every other writer
  const insertEntry = async (entry: LedgerEntry) => {
    statements.insertEntry.run(entry.id, entry.accountId, entry.amount.toString(), entry.kind, entry.generationId, entry.at.getTime());
  };
  const moveMoney = async (accountId: string, change: AccountBalance, charge: Charge | null) => {
    const moves = new MoneyMoves();
    moves.add(accountId, change, charge);
    applyMoves(statements, moves);
  };
  const readAccount = async (accountId: string) => statements.account(accountId);
  return {
    lockAccount: readAccount,
    readAccount,
    async writeAccount(accountId, next) {
      statements.writeAccount(accountId, next);
    },
    usedIn: async (accountId, windows, parts) => (parts === 'charges' ? statements.charges(accountId, windows) : statements.usage(windows, accountId).used),
    // the write batch's transaction already excludes every other writer: a read, then writes, is one step
    async reserveAndHold(holds, bound) {
      const first = holds[0];
      if (!first) return true;
      const account = statements.account(first.hold.accountId);
      if (!account) return false;
      const total = holds.reduce((sum, { hold }) => sum + hold.amount, 0n);
      if (account.balance - account.reserved < total) return false;
      if (bound && !withinBounds(bound, statements.charges(first.hold.accountId, bound), account.reserved, total)) return false;
      statements.writeAccount(first.hold.accountId, { balance: account.balance, reserved: account.reserved + total });
      for (const { pending } of holds) statements.insertHeld(pending);
      return true;
    },
    async settleHold(settlement) {
      settleHoldsNow(statements, [settlement]);
    },
    async settleHolds(settlements) {
      settleHoldsNow(statements, settlements);
    },
    async insertGeneration(row: Insertable<GenerationsTable>) {
      return statements.insertGeneration.run(generationValues(row)).changes === 1;
    },
    insertEntry,
    moveMoney,
  };
}

/**
 * Settles holds together, each as `LedgerTables.settleHold` says (the record written once, which
 * ends the hold its pending row carried, and only a call that wrote it charges), with the money of
 * all of them moved at the end: one balance write per account and one write per spend row, however
 * many settlements share them. Runs inside the write batch's transaction, synchronously.
 */
export function sqliteSettleHolds(database: BetterSqlite3.Database, settlements: readonly HoldSettlement[]): void {
  settleHoldsNow(prepared(database).statements, settlements);
}

function settleHoldsNow(statements: SqliteLedgerStatements, settlements: readonly HoldSettlement[]): void {
  const moves = new MoneyMoves();
  // a hold kept in process memory reserved nothing in the database: its row has no expiry
  statements.settleGenerations(settlements).forEach(({ written, released }, index) => {
    const { accountId, charge } = settlements[index] as HoldSettlement;
    const taken = written ? charge : null;
    if (released === 0n && taken === null) return;
    moves.add(accountId, { balance: -(taken?.amount ?? 0n), reserved: -released }, taken);
  });
  applyMoves(statements, moves);
}

/** Writes the balances (accounts first), then the spend rows: the order every settlement takes them in. */
function applyMoves(statements: SqliteLedgerStatements, moves: MoneyMoves): void {
  const accounts = moves.byAccount();
  for (const { accountId, change } of accounts) {
    const account = statements.account(accountId);
    if (!account) throw new Error(`account ${accountId} does not exist`);
    statements.writeAccount(accountId, { balance: account.balance + change.balance, reserved: account.reserved + change.reserved });
  }
  statements.addSpend(accounts.flatMap(({ spend }) => spend));
}
