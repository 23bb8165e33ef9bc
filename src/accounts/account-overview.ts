import { maxUnits, sumUnits, type Units } from '../billing/money.js';
import type { Store } from '../store/store.js';
import { emptyUsage, readScopeUsage, readScopesUsage, type ScopeUsage } from './scope-usage.js';
import { spendLimitOf } from './spend-limits.js';
import type { SpendLimit } from './types.js';

/** One workspace of an account, with its limit and what it has been charged. */
export interface WorkspaceOverview {
  id: string;
  name: string;
  limit: SpendLimit | null;
  /** The stored routing defaults as JSON (the request's `provider` form), or null. */
  routingDefaults: unknown;
  usage: ScopeUsage;
}

/** An account's money, limit and workspaces as the operator and the account's people see them. */
export interface AccountOverview {
  id: string;
  name: string;
  suspended: boolean;
  balance: Units;
  /** Held for requests in flight. */
  reserved: Units;
  /** Balance less what is held, never below zero. */
  spendable: Units;
  /** Every deposit ever made. */
  totalCredits: Units;
  /** Every charge ever made: the account's lifetime spend. */
  totalUsage: Units;
  limit: SpendLimit | null;
  usage: ScopeUsage;
  /** Oldest first. */
  workspaces: WorkspaceOverview[];
}

/** One row of the operator's account list. */
export interface AccountSummary {
  id: string;
  name: string;
  balance: Units;
  suspended: boolean;
  createdAt: Date;
}

/**
 * The account's overview with its usage windows as they stand at `at`; null for an unknown account.
 * `heldInProcess` is what holds kept in the reading process's memory reserve (SQLite, see
 * billing/process-holds.ts), beside the database's reserve.
 */
export async function readAccountOverview(store: Store, accountId: string, at: Date = new Date(), heldInProcess: Units = 0n): Promise<AccountOverview | null> {
  const account = await store.db
    .selectFrom('accounts')
    .select(['id', 'name', 'suspended', 'balance_units', 'reserved_units', 'limit_units', 'limit_reset'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!account) return null;
  const [deposits, workspaceRows, usage] = await Promise.all([
    store.db.selectFrom('ledger_entries').select('amount_units').where('account_id', '=', accountId).where('kind', '=', 'deposit').execute(),
    store.db
      .selectFrom('workspaces')
      .select(['id', 'name', 'routing_defaults', 'limit_units', 'limit_reset'])
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    readScopeUsage(store.db, { scope: 'account', id: accountId }, at),
  ]);
  const workspaceUsage = await readScopesUsage(store.db, 'workspace', workspaceRows.map((row) => row.id), at);
  const workspaces = workspaceRows.map((row): WorkspaceOverview => ({
    id: row.id,
    name: row.name,
    limit: spendLimitOf(row.limit_units, row.limit_reset),
    routingDefaults: parseStoredJson(row.routing_defaults),
    usage: workspaceUsage.get(row.id) ?? emptyUsage(),
  }));
  const balance = BigInt(account.balance_units);
  const reserved = BigInt(account.reserved_units) + heldInProcess;
  return {
    id: account.id,
    name: account.name,
    suspended: account.suspended === 1,
    balance,
    reserved,
    spendable: maxUnits(0n, balance - reserved),
    totalCredits: sumUnits(deposits.map((row) => row.amount_units)),
    totalUsage: usage.total,
    limit: spendLimitOf(account.limit_units, account.limit_reset),
    usage,
    workspaces,
  };
}

/** Every account, oldest first. */
export async function listAccounts(store: Store): Promise<AccountSummary[]> {
  const rows = await store.db
    .selectFrom('accounts')
    .select(['id', 'name', 'balance_units', 'suspended', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    balance: BigInt(row.balance_units),
    suspended: row.suspended === 1,
    createdAt: new Date(row.created_at),
  }));
}

function parseStoredJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
