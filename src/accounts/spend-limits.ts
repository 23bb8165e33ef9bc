import { formatUsd } from '../billing/money.js';
import type { Store } from '../store/store.js';
import { recordAudit, type ChangeContext } from './audit.js';
import { bumpKeyRevision } from './key-revision.js';
import type { LimitReset, ScopeLimits, SpendLimit, SpendScope } from './types.js';
import { isLimitReset } from './usage-window.js';

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
 * any key under it is held against the new limit; the change is audited. Throws RangeError for an
 * unknown account or workspace.
 */
export async function setSpendLimit(store: Store, owner: LimitOwner, limit: SpendLimit | null, context: ChangeContext): Promise<void> {
  if (limit && limit.limit < 0n) throw new RangeError('a spend limit cannot be negative');
  const values = { limit_units: limit ? limit.limit.toString() : null, limit_reset: limit ? limit.reset : null };
  await store.write(async (tx) => {
    const table = owner.scope === 'account' ? 'accounts' : 'workspaces';
    const id = owner.scope === 'account' ? owner.accountId : owner.workspaceId;
    const row = owner.scope === 'account'
      ? await tx.selectFrom('accounts').select(['id as account_id', 'limit_units', 'limit_reset']).where('id', '=', id).executeTakeFirst()
      : await tx.selectFrom('workspaces').select(['account_id', 'limit_units', 'limit_reset']).where('id', '=', id).executeTakeFirst();
    if (!row) throw new RangeError(`no ${owner.scope} ${id}`);
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
