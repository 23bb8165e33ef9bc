import type { LimitReset } from './types.js';

const DAY_MS = 86_400_000;

/** Start (epoch ms) of the UTC day holding `at`. */
export function dayStart(at: Date): number {
  // epoch time counts no leap seconds: every UTC day is DAY_MS long, and one starts at 0
  const ms = at.getTime();
  return ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
}

/** Start of the UTC week (weeks begin on Monday 00:00 UTC). */
export function weekStart(at: Date): number {
  const daysSinceMonday = (at.getUTCDay() + 6) % 7;
  return dayStart(at) - daysSinceMonday * DAY_MS;
}

/** Start of the UTC calendar month. */
export function monthStart(at: Date): number {
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
}

/** Start of the spend-limit window in force at `at`; null = the key's whole lifetime. */
export function windowStart(reset: LimitReset | null, at: Date): number | null {
  switch (reset) {
    case 'daily':
      return dayStart(at);
    case 'weekly':
      return weekStart(at);
    case 'monthly':
      return monthStart(at);
    case null:
      return null;
    default: {
      const unreachable: never = reset;
      throw new Error(`unknown limit reset ${String(unreachable)}`);
    }
  }
}

export const LIMIT_RESETS: readonly LimitReset[] = ['daily', 'weekly', 'monthly'];

export function isLimitReset(value: unknown): value is LimitReset {
  return typeof value === 'string' && (LIMIT_RESETS as readonly string[]).includes(value);
}
