import type { Units } from '../billing/money.js';
import type { Db } from '../store/store.js';
import type { LimitReset } from './types.js';
import { dayStart, monthStart, weekStart, windowStart } from './usage-window.js';

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

/** The charges counted against a spend limit with this reset, at `at`. */
export async function readWindowUsage(
  db: Db,
  key: { id: string; reset: LimitReset | null; total: Units },
  at: Date,
): Promise<Units> {
  const start = windowStart(key.reset, at);
  if (start === null) return key.total;
  const days = await db
    .selectFrom('key_usage')
    .select('amount_units')
    .where('key_id', '=', key.id)
    .where('day_start', '>=', start)
    .execute();
  return days.reduce((sum, day) => sum + BigInt(day.amount_units), 0n);
}

/**
 * Adds a charge to the key's lifetime total and to its UTC day. Runs inside the settling
 * transaction, after the owning account's row is locked, so no other writer changes these rows.
 */
export async function addKeyUsage(tx: Db, keyId: string, amount: Units, at: Date): Promise<void> {
  const day = dayStart(at);
  const current = await tx
    .selectFrom('api_keys')
    .leftJoin('key_usage', (join) =>
      join.onRef('key_usage.key_id', '=', 'api_keys.id').on('key_usage.day_start', '=', day),
    )
    .select(['api_keys.usage_units', 'key_usage.amount_units'])
    .where('api_keys.id', '=', keyId)
    .executeTakeFirst();
  if (!current) return;
  const dayAmount = (BigInt(current.amount_units ?? '0') + amount).toString();
  await tx
    .insertInto('key_usage')
    .values({ key_id: keyId, day_start: day, amount_units: dayAmount })
    .onConflict((conflict) =>
      conflict.columns(['key_id', 'day_start']).doUpdateSet({ amount_units: dayAmount }),
    )
    .execute();
  await tx
    .updateTable('api_keys')
    .set({ usage_units: (BigInt(current.usage_units) + amount).toString() })
    .where('id', '=', keyId)
    .execute();
}
