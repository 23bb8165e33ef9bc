import { ACTIVITY_DAYS, activityWindow, readSpendPerModel } from '../billing/daily-activity.js';
import { formatUsd } from '../billing/money.js';
import type { Store } from '../store/store.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The account's spend per UTC day and model over the days `GET /activity` covers, as the chart
 * reads it: `days` (Unix seconds of each day's start) and one series per model, each an exact
 * decimal USD string per day (the chart turns them into numbers to draw).
 */
export interface SpendSeries {
  days: number[];
  series: { model: string; usd: string[] }[];
}

export async function readSpendSeries(store: Store, accountId: string, at: Date = new Date()): Promise<SpendSeries> {
  const window = activityWindow(at);
  const spend = await readSpendPerModel(store.db, accountId, window);
  return {
    days: Array.from({ length: ACTIVITY_DAYS }, (_, index) => (window.from + index * DAY_MS) / 1000),
    series: spend.map(({ model, perDay }) => ({ model, usd: perDay.map((units) => formatUsd(units)) })),
  };
}
