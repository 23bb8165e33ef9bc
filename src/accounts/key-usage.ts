import type { Units } from '../billing/money.js';
import type { Db } from '../store/store.js';
import { dayStart, monthStart, weekStart } from './usage-window.js';

/** What a key has been charged: in total and in the current UTC day, week and month. */
export interface KeyUsage {
  total: Units;
  daily: Units;
  weekly: Units;
  monthly: Units;
}

/** Sums the key's per-day charges into its windows as they stand at `at`. */
export async function readKeyUsage(db: Db, keyId: string, at: Date): Promise<KeyUsage> {
  const key = await db
    .selectFrom('api_keys')
    .select('usage_units')
    .where('id', '=', keyId)
    .executeTakeFirst();
  const today = dayStart(at);
  const week = weekStart(at);
  const month = monthStart(at);
  const days = await db
    .selectFrom('key_usage')
    .select(['day_start', 'amount_units'])
    .where('key_id', '=', keyId)
    .where('day_start', '>=', Math.min(week, month))
    .execute();
  const usage: KeyUsage = { total: BigInt(key?.usage_units ?? '0'), daily: 0n, weekly: 0n, monthly: 0n };
  for (const day of days) {
    const amount = BigInt(day.amount_units);
    if (day.day_start >= today) usage.daily += amount;
    if (day.day_start >= week) usage.weekly += amount;
    if (day.day_start >= month) usage.monthly += amount;
  }
  return usage;
}
