import { SPEND_SCOPES, type ScopeLimits, type SpendLimit, type SpendScope } from '../accounts/types.js';
import { windowStart } from '../accounts/usage-window.js';
import { GatewayError } from '../core/errors.js';
import type { SpendOwners, UsageWindow } from './ledger-tables.js';
import { formatUsd, type Units } from './money.js';

/** A scope's spend limit and the window it counts over now. */
export interface LimitWindow extends UsageWindow {
  scope: SpendScope;
  limit: SpendLimit;
}

/** The windows of the limits on a hold's scopes, key first, then workspace, then account. */
export function limitWindows(owners: SpendOwners, limits: ScopeLimits, at: Date): LimitWindow[] {
  const windows: LimitWindow[] = [];
  for (const scope of SPEND_SCOPES) {
    const limit = limits[scope];
    if (limit) windows.push({ scope, limit, ref: { scope, id: owners[scope] }, start: windowStart(limit.reset, at) });
  }
  return windows;
}

/**
 * Refuses a hold that would take its key, workspace or account past a spend limit: what the scope
 * was charged in the current UTC window, plus what its open holds taken in that window reserve
 * (`used`, in the windows' order), plus this hold. A scope already at its limit is refused whatever
 * the hold. The first scope that refuses (key, then workspace, then account) is named in the 402,
 * with `limit` and `used` (charged + held) as integer strings in 10^-24 USD and the window's
 * `limit_reset`. The same arithmetic wherever holds are kept: under the account's lock in the
 * database (hold-batches.ts), in one synchronous step in process memory (process-holds.ts), so
 * concurrent holds of one account are decided one after another.
 */
export function judgeSpendLimits(windows: readonly LimitWindow[], used: readonly Units[], amount: Units): void {
  windows.forEach(({ scope, limit }, index) => judgeSpend(scope, limit, used[index] ?? 0n, amount));
}

function judgeSpend(scope: SpendScope, limit: SpendLimit, used: Units, amount: Units): void {
  if (used < limit.limit && used + amount <= limit.limit) return;
  throw spendLimitReached(scope, limit, used, amount);
}

const SCOPE_NAMES: Record<SpendScope, string> = { key: 'This key', workspace: "This key's workspace", account: "This key's account" };

function spendLimitReached(scope: SpendScope, limit: SpendLimit, used: Units, amount: Units): GatewayError {
  const window = limit.reset === null ? '' : ` ${limit.reset}`;
  return new GatewayError(
    'payment_required',
    `${SCOPE_NAMES[scope]} has reached its${window} spend limit: ${formatUsd(used)} of ${formatUsd(limit.limit)} USD used or held, this request needs up to ${formatUsd(amount)} USD`,
    { metadata: { scope, limit: limit.limit.toString(), used: used.toString(), limit_reset: limit.reset } },
  );
}
