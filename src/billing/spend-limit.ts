import { SPEND_SCOPES, type ScopeLimits, type SpendLimit, type SpendScope } from '../accounts/types.js';
import type { ScopeRef } from '../accounts/scope-usage.js';
import { windowStart } from '../accounts/usage-window.js';
import { GatewayError } from '../core/errors.js';
import type { LedgerTables, SpendOwners } from './ledger-tables.js';
import { formatUsd, type Units } from './money.js';

/**
 * Refuses a hold that would take its key, workspace or account past a spend limit: what the scope
 * was charged in the current UTC window, plus what its open holds taken in that window reserve,
 * plus this hold. A scope already at its limit is refused whatever the hold. The first scope that
 * refuses (key, then workspace, then account) is named in the 402, with `limit` and `used`
 * (charged + held) as integer strings in 10^-24 USD and the window's `limit_reset`. The same
 * arithmetic for both engines; it runs inside the hold's transaction, after the account row is
 * locked, so concurrent holds of one account are decided one after another.
 */
export async function checkSpendLimits(tables: LedgerTables, owners: SpendOwners, limits: ScopeLimits, amount: Units, at: Date): Promise<void> {
  for (const { scope, limit, ref, start } of limitWindows(owners, limits, at)) {
    const used = (await tables.chargedSince(ref, start)) + (await tables.heldSince(ref, start));
    judgeSpend(scope, limit, used, amount);
  }
}

/** The same rule where what each scope used is read at once (holds kept in this process's memory). */
export function checkSpendLimitsNow(used: (ref: ScopeRef, start: number | null) => Units, owners: SpendOwners, limits: ScopeLimits, amount: Units, at: Date): void {
  for (const { scope, limit, ref, start } of limitWindows(owners, limits, at)) judgeSpend(scope, limit, used(ref, start), amount);
}

interface LimitWindow {
  scope: SpendScope;
  limit: SpendLimit;
  ref: ScopeRef;
  /** Where the limit's current UTC window starts; null: it never resets. */
  start: number | null;
}

function* limitWindows(owners: SpendOwners, limits: ScopeLimits, at: Date): Generator<LimitWindow> {
  for (const scope of SPEND_SCOPES) {
    const limit = limits[scope];
    if (limit) yield { scope, limit, ref: { scope, id: owners[scope] }, start: windowStart(limit.reset, at) };
  }
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
