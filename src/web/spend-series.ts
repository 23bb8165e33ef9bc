import { ACTIVITY_DAYS, activityWindow, readDailyActivity } from '../accounts/daily-activity.js';
import { formatUsd } from '../billing/money.js';
import type { Store } from '../store/store.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The account's spend per UTC day and model over the days `GET /activity` covers, as the chart
 * reads it: `days` (Unix seconds of each day's start) and one series per model, each an exact
 * decimal USD string per day. Amounts are summed as bigint units; the chart turns them into numbers
 * to draw.
 */
export interface SpendSeries {
  days: number[];
  series: { model: string; usd: string[] }[];
}

export async function readSpendSeries(store: Store, accountId: string, at: Date = new Date()): Promise<SpendSeries> {
  const window = activityWindow(at);
  const rows = await readDailyActivity(store.db, accountId, window);
  const sums = new Map<string, bigint[]>();
  for (const row of rows) {
    const day = Math.floor((Date.parse(`${row.date}T00:00:00Z`) - window.from) / DAY_MS);
    const perDay = sums.get(row.model) ?? Array.from({ length: ACTIVITY_DAYS }, () => 0n);
    perDay[day] = (perDay[day] ?? 0n) + row.usage;
    sums.set(row.model, perDay);
  }
  return {
    days: Array.from({ length: ACTIVITY_DAYS }, (_, index) => (window.from + index * DAY_MS) / 1000),
    series: [...sums.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([model, perDay]) => ({ model, usd: perDay.map((units) => formatUsd(units)) })),
  };
}
