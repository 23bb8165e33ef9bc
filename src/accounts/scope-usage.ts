import type { Units } from '../billing/money.js';
import type { Db } from '../store/store.js';
import type { SpendScope } from './types.js';
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

/** Sums the scope's per-day charges into its windows as they stand at `at`. */
export async function readScopeUsage(db: Db, ref: ScopeRef, at: Date): Promise<ScopeUsage> {
  const today = dayStart(at);
  const week = weekStart(at);
  const month = monthStart(at);
  const rows = await db
    .selectFrom('spend_usage')
    .select(['day_start', 'amount_units'])
    .where('scope', '=', ref.scope)
    .where('scope_id', '=', ref.id)
    .where((where) => where.or([where('day_start', '=', LIFETIME_DAY), where('day_start', '>=', Math.min(week, month))]))
    .execute();
  const usage: ScopeUsage = { total: 0n, daily: 0n, weekly: 0n, monthly: 0n };
  for (const row of rows) {
    const amount = BigInt(row.amount_units);
    if (row.day_start === LIFETIME_DAY) {
      usage.total = amount;
      continue;
    }
    if (row.day_start >= today) usage.daily += amount;
    if (row.day_start >= week) usage.weekly += amount;
    if (row.day_start >= month) usage.monthly += amount;
  }
  return usage;
}
