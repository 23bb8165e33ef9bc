import { readWindowUsage } from '../accounts/key-usage.js';
import { isLimitReset } from '../accounts/usage-window.js';
import { GatewayError } from '../core/errors.js';
import type { Db } from '../store/store.js';
import type { Units } from './money.js';

/**
 * Refuses a hold that would take a key past its spend limit: what the key was charged in the
 * current UTC window, plus what its open holds reserve, plus this hold. A key already at its
 * limit is refused whatever the hold. The 402 names the key scope and carries `limit` and `used`
 * (charged + held) as integer strings in 10^-24 USD, and the window's `limit_reset`.
 * Runs inside the hold's transaction, after the account row is locked.
 */
export async function checkKeySpendLimit(tx: Db, keyId: string, amount: Units, at: Date): Promise<void> {
  const key = await tx
    .selectFrom('api_keys')
    .select(['limit_units', 'limit_reset', 'usage_units'])
    .where('id', '=', keyId)
    .executeTakeFirst();
  if (!key || key.limit_units === null) return;
  const limit = BigInt(key.limit_units);
  const reset = isLimitReset(key.limit_reset) ? key.limit_reset : null;
  const charged = await readWindowUsage(tx, { id: keyId, reset, total: BigInt(key.usage_units) }, at);
  const holds = await tx.selectFrom('holds').select('amount_units').where('key_id', '=', keyId).execute();
  const used = holds.reduce((sum, hold) => sum + BigInt(hold.amount_units), charged);
  if (used < limit && used + amount <= limit) return;
  throw new GatewayError('payment_required', 'This key has reached its spend limit', {
    metadata: { scope: 'key', limit: limit.toString(), used: used.toString(), limit_reset: reset },
  });
}
