import type { Insertable } from 'kysely';
import { LIFETIME_DAY, type ScopeRef } from '../accounts/scope-usage.js';
import type { SpendScope } from '../accounts/types.js';
import type { GenerationsTable } from '../store/schema.js';
import { sumUnits, type Units } from './money.js';
import type { Hold } from './types.js';

export interface AccountBalance {
  balance: Units;
  reserved: Units;
}

/** A pending generation's row: what its admission fixed, its instance and its hold. */
export type PendingGenerationRow = Insertable<GenerationsTable> & { instance_id: string | null };

/** An open hold and the pending generation written with it. */
export interface HeldGeneration {
  hold: Hold;
  pending: PendingGenerationRow;
}

/** Money that moves in without a generation: a deposit. (A charge is recorded by its generation's row.) */
export interface LedgerEntry {
  id: string;
  accountId: string;
  amount: Units;
  kind: 'deposit';
  generationId: null;
  at: Date;
}

/**
 * The rows money moves through, as the ledger reads and writes them inside one write transaction.
 * The ledger's decisions are written once against this; each engine supplies the statements (the
 * query builder on PostgreSQL, statements prepared once on SQLite, where they run on every request).
 */
export interface LedgerTables {
  /**
   * The account's balance; its row stays locked until the transaction ends (against other writers
   * of the balance, not against the inserts that only reference the account).
   */
  lockAccount(accountId: string): Promise<AccountBalance | null>;
  /** The account's balance as it reads now, locking nothing (what a refusal tells). */
  readAccount(accountId: string): Promise<AccountBalance | null>;
  writeAccount(accountId: string, next: AccountBalance): Promise<void>;
  /**
   * What each window's scope (each a scope of `accountId`'s) used in it, of `parts` (see
   * `usageStatement`), read in one statement, in the windows' order.
   */
  usedIn(accountId: string, windows: readonly UsageWindow[], parts: UsageParts): Promise<Units[]>;
  /**
   * Reserves the holds' total amount of their account's spendable balance and inserts each pending
   * generation, which carries its open hold (taken at its `heldAt`, expiring at its `expiresAt`,
   * stamped with the instance that took it; see `pendingGenerationRow`): one write (one statement
   * on PostgreSQL) that does nothing and answers false when the spendable balance does not cover
   * the total. Every hold is of one account. The account's row stays locked until the transaction
   * ends, so callers run it last.
   *
   * With `bound`, the spend limit windows of one hold, it also does nothing (false) unless each
   * window's charges plus the account's whole reserve, plus the hold, stay within the window's
   * limit (the bound of `judgeSpendLimits` that passes without reading the holds: see
   * hold-batches.ts). On PostgreSQL the account's row must then be locked by an earlier statement of
   * the transaction, so that the charges are read after every settlement before the lock.
   */
  reserveAndHold(holds: readonly HeldGeneration[], bound?: readonly LimitBound[]): Promise<boolean>;
  /**
   * Ends a hold, once: writes the generation's final record (its `SETTLED_COLUMNS` over the pending
   * row, or the whole record where none exists; nothing when it was already settled), which ends
   * the hold the pending row carried, and, where it did either, moves the account's money: the
   * reserve the hold still had (its row pending with an expiry: not released by the reconciler) is
   * given back, and `charge` is taken only when this call wrote the record (balance and the owners'
   * spend; the record, whose `cost_units` is the charge, is its only entry). A second settlement of
   * one hold changes nothing. One write (one statement on PostgreSQL) locking the generation, the
   * account and then the spend rows, the order every settlement takes them in.
   */
  settleHold(settlement: HoldSettlement): Promise<void>;
  /**
   * Ends several holds as `settleHold` ends each, with the money of all of them moved at the end:
   * one balance write per account (accounts in the order of their ids) and one write per spend row,
   * however many settlements share them. The accounts' rows are locked only by that last write.
   * On PostgreSQL the settlements of one account ending different holds are one statement, which
   * needs no transaction around it (a hold settled twice in one call is two statements).
   */
  settleHolds(settlements: readonly HoldSettlement[]): Promise<void>;
  /** True when this call wrote the record (it did not exist yet). */
  insertGeneration(row: Insertable<GenerationsTable>): Promise<boolean>;
  insertEntry(entry: LedgerEntry): Promise<void>;
  /**
   * Moves the account's balance and reserve by `change` (negative to take away) and, for a charge,
   * adds it to the UTC day `dayStart` and the lifetime total of the three scopes `owners`: one
   * write, with the account's row before the spend rows (the order every settlement takes them in);
   * run it last.
   */
  moveMoney(accountId: string, change: AccountBalance, charge: Charge | null): Promise<void>;
}

/** What the settlement or release of one hold writes. */
export interface HoldSettlement {
  holdId: string;
  accountId: string;
  /** The generation's final record. */
  record: Insertable<GenerationsTable>;
  /** What it charges if it writes that record; null for a release, or a charge of nothing. */
  charge: Charge | null;
}

/**
 * What a settlement charges (its record's `cost_units`, the one place the charge is written), and
 * the scopes and day its spend counts in.
 */
export interface Charge {
  amount: Units;
  owners: SpendOwners;
  dayStart: number;
}

/** The key, workspace and account one charge is spent by. */
export type SpendOwners = Record<SpendScope, string>;

export function spendOwners(hold: Pick<Hold, 'keyId' | 'workspaceId' | 'accountId'>): SpendOwners {
  return { key: hold.keyId, workspace: hold.workspaceId, account: hold.accountId };
}

/** The column of a generation's row (and so of the hold its pending row carries) naming each spend scope's owner. */
export const HOLD_OWNER_COLUMN = { key: 'key_id', workspace: 'workspace_id', account: 'account_id' } as const satisfies Record<SpendScope, string>;

/** A column of the generations table. */
export type GenerationColumn = keyof GenerationsTable;

/** Every column of a generation row, in one fixed order (statements prepared once bind by position). */
export const GENERATION_COLUMNS = Object.keys({
  id: 0, account_id: 0, workspace_id: 0, key_id: 0, model: 0, provider_slug: 0, provider_name: 0, endpoint_id: 0,
  upstream_id: 0, streamed: 0, status: 0, finish_reason: 0, native_finish_reason: 0, error_code: 0, error_message: 0,
  prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0,
  estimated_prompt_tokens: 0, cost_units: 0, cost_lines: 0, uncollected_units: 0, uncollected_reason: 0, created_at: 0,
  latency_ms: 0, generation_ms: 0, app_title: 0, app_referer: 0, metadata: 0, instance_id: 0, hold_id: 0, held_units: 0, held_at: 0,
  hold_expires_at: 0,
} satisfies Record<GenerationColumn, 0>) as readonly GenerationColumn[];

/**
 * A generation row's values in `GENERATION_COLUMNS` order, an absent value NULL: what the prepared
 * statements of both engines bind. Written out once as a function naming each column: read by a
 * computed name, the 34 columns cost about 2 µs a row (a lookup by name each).
 */
export const generationValues = new Function('row', `return [${GENERATION_COLUMNS.map((column) => `row.${column} ?? null`).join(', ')}];`) as (
  row: Insertable<GenerationsTable>,
) => unknown[];

/**
 * What a generation's admission fixed: written with the hold and left as it is by the settlement,
 * so the indexes over the owner and the creation time are not rewritten.
 */
const ADMITTED_COLUMNS: ReadonlySet<GenerationColumn> = new Set<GenerationColumn>([
  'id', 'account_id', 'workspace_id', 'key_id', 'created_at', 'app_title', 'app_referer', 'metadata',
]);

/**
 * What only a pending row carries (its instance and its hold): kept as they are once it is settled.
 * A settlement leaves the hold's expiry as it found it, so the row it returns says whether the hold
 * was still open (a settled row's hold is closed, whatever its expiry says).
 */
const PENDING_COLUMNS: ReadonlySet<GenerationColumn> = new Set<GenerationColumn>(['instance_id', 'hold_id', 'held_units', 'held_at', 'hold_expires_at']);

/** A generation row whose hold is open in the database: pending, with an expiry (the partial index of migration 0013). */
export const OPEN_HOLD = "status = 'pending' AND hold_expires_at IS NOT NULL";

/** What a settlement decides, written over the pending row: every other column. */
export const SETTLED_COLUMNS: readonly GenerationColumn[] = GENERATION_COLUMNS.filter(
  (column) => !ADMITTED_COLUMNS.has(column) && !PENDING_COLUMNS.has(column),
);

/** The stored form of an account's money, as both engines read it. */
export interface AccountRow {
  balance_units: string;
  reserved_units: string;
}

export function accountBalanceOf(row: AccountRow): AccountBalance {
  return { balance: BigInt(row.balance_units), reserved: BigInt(row.reserved_units) };
}

/** A spend limit's window over one scope: from the UTC day starting at `start` (ms), or all time (null). */
export interface UsageWindow {
  ref: ScopeRef;
  start: number | null;
}

/** A row of `usageStatement`: a charge or an open hold of window number `part`, or (-1) the account. */
export interface UsageRow {
  part: number;
  amount_units: string;
  /** The account's reserve, on its row only. */
  reserved_units: string | null;
}

/** The account's own row among the usage rows. */
const ACCOUNT_PART = -1;

/** What a usage read counts of a window: its scope's charges alone, or its open holds too. */
export type UsageParts = 'charges' | 'charges and holds';

/**
 * One statement reading what each window's scope used in it: its charges (its spend rows of the UTC
 * days from `start`, or its lifetime row) and, unless `parts` is 'charges', the amounts of its open
 * holds taken since `start` (every scope of a window is one of `accountId`'s, whose open holds are
 * read by their index), as rows tagged with the window's position; with `balance`, the account's
 * balance and reserve too. One statement is one round trip on PostgreSQL and one read on SQLite,
 * where every read outside a transaction starts one of its own. `placeholder(n)` writes the
 * engine's n-th parameter (from 1); the text depends only on how many windows there are, which are
 * lifetime ones, the parts and the balance, so an engine may prepare it once.
 */
export function usageStatement(
  windows: readonly UsageWindow[],
  placeholder: (position: number) => string,
  { accountId, parts, balance = false }: { accountId: string; parts: UsageParts; balance?: boolean },
): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const bind = (value: unknown) => {
    values.push(value);
    return placeholder(values.length);
  };
  const selects: string[] = [];
  if (balance) selects.push(`SELECT ${ACCOUNT_PART} AS part, balance_units AS amount_units, reserved_units FROM accounts WHERE id = ${bind(accountId)}`);
  windows.forEach(({ ref, start }, part) => {
    // parameters are bound in the order they appear: SQLite's `?` are numbered by position
    const charged = `SELECT ${part} AS part, amount_units, NULL AS reserved_units FROM spend_usage WHERE scope = ${bind(ref.scope)} AND scope_id = ${bind(ref.id)}`;
    selects.push(`${charged} AND ${start === null ? `day_start = ${LIFETIME_DAY}` : `day_start >= ${bind(start)}`}`);
    if (parts === 'charges') return;
    const account = `account_id = ${bind(ref.scope === 'account' ? ref.id : accountId)}`;
    const owner = ref.scope === 'account' ? '' : ` AND ${HOLD_OWNER_COLUMN[ref.scope]} = ${bind(ref.id)}`;
    const held = `SELECT ${part} AS part, held_units AS amount_units, NULL AS reserved_units FROM generations WHERE ${account}${owner} AND ${OPEN_HOLD}`;
    selects.push(start === null ? held : `${held} AND held_at >= ${bind(start)}`);
  });
  return { text: selects.join(' UNION ALL '), values };
}

/** A spend limit window a reserve is bounded by (see `LedgerTables.reserveAndHold`). */
export interface LimitBound extends UsageWindow {
  limit: Units;
}

/**
 * True when each of `bound`'s windows, its `charged` plus the account's whole `reserved` plus
 * `amount`, stays within its limit, as `judgeSpendLimits` would pass it.
 */
export function withinBounds(bound: readonly LimitBound[], charged: readonly Units[], reserved: Units, amount: Units): boolean {
  return bound.every(({ limit }, index) => {
    const used = (charged[index] ?? 0n) + reserved;
    return used < limit && used + amount <= limit;
  });
}

/** The usage rows summed: what each of `count` windows used, and the account's balance where it was read (null: no such account). */
export function usageOf(rows: readonly UsageRow[], count: number): { account: AccountBalance | null; used: Units[] } {
  const amounts: string[][] = Array.from({ length: count }, () => []);
  let account: AccountBalance | null = null;
  for (const row of rows) {
    if (row.part === ACCOUNT_PART) account = accountBalanceOf({ balance_units: row.amount_units, reserved_units: row.reserved_units ?? '0' });
    else amounts[row.part]?.push(row.amount_units);
  }
  return { account, used: amounts.map(sumUnits) };
}
