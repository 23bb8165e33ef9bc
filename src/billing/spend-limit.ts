import { windowStart } from '../accounts/usage-window.js';
import { GatewayError } from '../core/errors.js';
import type { LedgerTables } from './ledger-tables.js';
import type { Units } from './money.js';

/**
 * Refuses a hold that would take a key past its spend limit: what the key was charged in the
 * current UTC window, plus what its open holds reserve, plus this hold. A key already at its
 * limit is refused whatever the hold. The 402 names the key scope and carries `limit` and `used`
 * (charged + held) as integer strings in 10^-24 USD, and the window's `limit_reset`.
 * Runs inside the hold's transaction, after the account row is locked.
 */
export async function checkKeySpendLimit(tables: LedgerTables, keyId: string, amount: Units, at: Date): Promise<void> {
  const key = await tables.keySpendState(keyId);
  if (!key || key.limit === null) return;
  const start = windowStart(key.reset, at);
  const charged = start === null ? key.total : await tables.chargedSince(keyId, start);
  const used = charged + (await tables.heldForKey(keyId));
  if (used < key.limit && used + amount <= key.limit) return;
  throw new GatewayError('payment_required', 'This key has reached its spend limit', {
    metadata: { scope: 'key', limit: key.limit.toString(), used: used.toString(), limit_reset: key.reset },
  });
}
