import { formatUsd } from '../billing/money.js';
import type { Store } from '../store/store.js';

/** Days the spend chart covers, today included. */
export const SPEND_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The account's spend per UTC day and model over the last `SPEND_DAYS` days, as the chart reads it:
 * `days` (Unix seconds of each day's start) and one series per model, each an exact decimal USD
 * string per day. Amounts are summed as bigint units; the chart turns them into numbers to draw.
 */
export interface SpendSeries {
  days: number[];
  series: { model: string; usd: string[] }[];
}

export async function readSpendSeries(store: Store, accountId: string, at: Date = new Date()): Promise<SpendSeries> {
  const today = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  const first = today - (SPEND_DAYS - 1) * DAY_MS;
  const rows = await store.db
    .selectFrom('generations')
    .select(['model', 'cost_units', 'created_at'])
    .where('account_id', '=', accountId)
    .where('status', '!=', 'pending')
    .where('created_at', '>=', first)
    .execute();
  const sums = new Map<string, bigint[]>();
  for (const row of rows) {
    const day = Math.floor((row.created_at - first) / DAY_MS);
    if (day < 0 || day >= SPEND_DAYS) continue;
    const perDay = sums.get(row.model) ?? Array.from({ length: SPEND_DAYS }, () => 0n);
    perDay[day] = (perDay[day] ?? 0n) + BigInt(row.cost_units);
    sums.set(row.model, perDay);
  }
  return {
    days: Array.from({ length: SPEND_DAYS }, (_, index) => (first + index * DAY_MS) / 1000),
    series: [...sums.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([model, perDay]) => ({ model, usd: perDay.map((units) => formatUsd(units)) })),
  };
}
