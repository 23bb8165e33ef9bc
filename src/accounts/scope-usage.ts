import type { Units } from '../billing/money.js';
import type { Db } from '../store/store.js';
import type { LimitReset, SpendScope } from './types.js';
import { dayStart, monthStart, weekStart } from './usage-window.js';

/** The day of a scope's lifetime row in `spend_usage` (real days start at 0 and later). */
export const LIFETIME_DAY = -1;

/** One key, workspace or account, as its spend is kept. */
export interface ScopeRef {
  scope: SpendScope;
  id: string;
}

/** What a scope has been charged: in total and in the current UTC day, week and month. */
export interface ScopeUsage {
  total: Units;
  daily: Units;
  weekly: Units;
  monthly: Units;
}

export function emptyUsage(): ScopeUsage {
  return { total: 0n, daily: 0n, weekly: 0n, monthly: 0n };
}

/** Sums the scope's per-day charges into its windows as they stand at `at`. */
export async function readScopeUsage(db: Db, ref: ScopeRef, at: Date): Promise<ScopeUsage> {
  return (await readScopesUsage(db, ref.scope, [ref.id], at)).get(ref.id) ?? emptyUsage();
}

/** The same for several owners of one scope in one query; an owner never charged is absent. */
export async function readScopesUsage(db: Db, scope: SpendScope, ids: readonly string[], at: Date): Promise<Map<string, ScopeUsage>> {
  const usage = new Map<string, ScopeUsage>();
  if (ids.length === 0) return usage;
  const today = dayStart(at);
  const week = weekStart(at);
  const month = monthStart(at);
  const rows = await db
    .selectFrom('spend_usage')
    .select(['scope_id', 'day_start', 'amount_units'])
    .where('scope', '=', scope)
    .where('scope_id', 'in', ids)
    .where((where) => where.or([where('day_start', '=', LIFETIME_DAY), where('day_start', '>=', Math.min(week, month))]))
    .execute();
  for (const row of rows) {
    const entry = usage.get(row.scope_id) ?? emptyUsage();
    usage.set(row.scope_id, entry);
    const amount = BigInt(row.amount_units);
    if (row.day_start === LIFETIME_DAY) {
      entry.total = amount;
      continue;
    }
    if (row.day_start >= today) entry.daily += amount;
    if (row.day_start >= week) entry.weekly += amount;
    if (row.day_start >= month) entry.monthly += amount;
  }
  return usage;
}

/** The usage in the window a limit is counted over (its whole lifetime without a reset). */
export function usageInWindow(reset: LimitReset | null, usage: ScopeUsage): Units {
  switch (reset) {
    case 'daily':
      return usage.daily;
    case 'weekly':
      return usage.weekly;
    case 'monthly':
      return usage.monthly;
    case null:
      return usage.total;
    default: {
      const unreachable: never = reset;
      throw new Error(`unknown limit reset ${String(unreachable)}`);
    }
  }
}
