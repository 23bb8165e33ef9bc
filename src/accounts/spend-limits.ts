import { formatUsd, parseUsd, type Units } from '../billing/money.js';
import type { Store } from '../store/store.js';
import { recordAudit, type ChangeContext } from './audit.js';
import { bumpKeyRevision } from './key-revision.js';
import type { LimitReset, ScopeLimits, SpendLimit, SpendScope } from './types.js';
import { isLimitReset } from './usage-window.js';

/**
 * The largest spend limit accepted anywhere (API, pages, approval, CLI): a billion USD. A limit past
 * it could never be reached by a balance, and the pages could not show it.
 */
export const MAX_SPEND_LIMIT_USD = '1000000000';
const MAX_SPEND_LIMIT: Units = parseUsd(MAX_SPEND_LIMIT_USD);

/** Why an amount cannot be a spend limit, or null when it can. */
export function spendLimitProblem(amount: Units): string | null {
  if (amount < 0n) return 'must be zero or more';
  if (amount > MAX_SPEND_LIMIT) return `must be at most ${MAX_SPEND_LIMIT_USD} USD`;
  return null;
}

/** The amount, or a RangeError naming `field` when it cannot be a spend limit. */
export function checkedSpendLimit(amount: Units, field = 'limit'): Units {
  const problem = spendLimitProblem(amount);
  if (problem) throw new RangeError(`${field}: ${problem}`);
  return amount;
}

/** A stored limit (`limit_units`, `limit_reset`) as a SpendLimit; null where none is set. */
export function spendLimitOf(units: string | null, reset: string | null): SpendLimit | null {
  if (units === null) return null;
  return { limit: BigInt(units), reset: isLimitReset(reset) ? reset : null };
}

/** The scopes that have a limit. */
export function scopeLimits(limits: Record<SpendScope, SpendLimit | null>): ScopeLimits {
  const present: ScopeLimits = {};
  for (const [scope, limit] of Object.entries(limits) as [SpendScope, SpendLimit | null][]) {
    if (limit) present[scope] = limit;
  }
  return present;
}

/** A limit as the audit trail and the pages show it: USD decimal and window. */
export function describeLimit(limit: SpendLimit | null): { limit_usd: string; limit_reset: LimitReset | null } | null {
  return limit ? { limit_usd: formatUsd(limit.limit), limit_reset: limit.reset } : null;
}

/** The owner of a workspace or account limit. */
export type LimitOwner = { scope: 'account'; accountId: string } | { scope: 'workspace'; workspaceId: string };

/**
 * Sets (or with null removes) the spend limit of an account or a workspace. Every key's cached
 * view of its limits is dropped in the same transaction (the key revision), so the next request of
 * any key under it is held against the new limit; the change is audited. Throws RangeError naming
 * the field (`account`, `workspace`, `limit`) for an unknown owner or an amount out of range.
 */
export async function setSpendLimit(store: Store, owner: LimitOwner, limit: SpendLimit | null, context: ChangeContext): Promise<void> {
  if (limit) checkedSpendLimit(limit.limit);
  const values = { limit_units: limit ? limit.limit.toString() : null, limit_reset: limit ? limit.reset : null };
  await store.write(async (tx) => {
    const table = owner.scope === 'account' ? 'accounts' : 'workspaces';
    const id = owner.scope === 'account' ? owner.accountId : owner.workspaceId;
    const row = owner.scope === 'account'
      ? await tx.selectFrom('accounts').select(['id as account_id', 'limit_units', 'limit_reset']).where('id', '=', id).executeTakeFirst()
      : await tx.selectFrom('workspaces').select(['account_id', 'limit_units', 'limit_reset']).where('id', '=', id).executeTakeFirst();
    if (!row) throw new RangeError(`${owner.scope}: no ${owner.scope} ${id}`);
    await tx.updateTable(table).set(values).where('id', '=', id).execute();
    await bumpKeyRevision(tx);
    await recordAudit(tx, context, {
      accountId: row.account_id,
      action: 'limit.set',
      target: id,
      before: { scope: owner.scope, ...describeLimit(spendLimitOf(row.limit_units, row.limit_reset)) },
      after: { scope: owner.scope, ...describeLimit(limit) },
    });
  });
}
