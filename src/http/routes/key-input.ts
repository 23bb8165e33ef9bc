import { spendLimitProblem } from '../../accounts/spend-limits.js';
import type { SpendLimit, LimitReset } from '../../accounts/types.js';
import type { Units } from '../../billing/money.js';
import { unitsFromUsdNumber } from '../../billing/usd-number.js';
import { invalidRequest } from '../../core/errors.js';

/** A key's public id as `/keys/{hash}` takes it: SHA-256, 64 lowercase hex. */
export function isKeyHash(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text);
}

/** A spend limit sent as a JSON number of USD, exactly; negative, past the largest limit or past 10^-24 USD is a 400 naming `field`. */
export function readLimit(value: number, field = 'limit'): Units {
  let units: Units;
  try {
    units = unitsFromUsdNumber(value);
  } catch {
    throw invalidRequest(field, 'must be a USD amount with at most 24 decimal places');
  }
  const problem = spendLimitProblem(units);
  if (problem) throw invalidRequest(field, problem);
  return units;
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/** An ISO 8601 instant with its offset (`2030-01-31T12:00:00Z`) strictly after `now`; otherwise a 400 naming `field`. */
export function readFutureInstant(text: string, now: Date, field = 'expires_at'): Date {
  const match = INSTANT.exec(text);
  const at = match && isCalendarTime(match) ? new Date(text) : null;
  if (!at || Number.isNaN(at.getTime())) throw invalidRequest(field, 'must be an ISO 8601 instant with its offset, such as 2030-01-31T12:00:00Z');
  if (at.getTime() <= now.getTime()) throw invalidRequest(field, 'must be in the future');
  return at;
}

function isCalendarTime(match: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second = 0, offsetHour = 0, offsetMinute = 0] = match.slice(1).map((part) => Number(part ?? 0));
  if (year === undefined || month === undefined || day === undefined) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && (hour ?? 0) <= 23 && (minute ?? 0) <= 59 && second <= 59 && offsetHour <= 23 && offsetMinute <= 59;
}

/**
 * The key's limit after a change of `limit` and/or `limit_reset` (absent members keep what is
 * there). Removing the limit removes its window; a window without a limit is a 400 naming
 * `limit_reset`. Returns undefined when neither member was sent.
 */
export function changedLimit(current: SpendLimit | null, body: { limit?: number | null; limit_reset?: LimitReset | null }): SpendLimit | null | undefined {
  if (body.limit === undefined && body.limit_reset === undefined) return undefined;
  const amount = body.limit === undefined ? current?.limit ?? null : body.limit === null ? null : readLimit(body.limit);
  if (amount === null) {
    if (body.limit_reset !== undefined && body.limit_reset !== null) throw invalidRequest('limit_reset', 'needs a limit');
    return null;
  }
  const reset = body.limit_reset === undefined ? current?.reset ?? null : body.limit_reset;
  return { limit: amount, reset };
}
