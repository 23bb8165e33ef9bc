import { ACTIVE_STATUSES } from '../../src/batches/batch-rows.js';
import type { Harness } from '../e2e/harness.js';

/**
 * Polls until none of the account's batches is still waiting or running, for at most `limitMs` (a
 * bound, not an assertion). A batch's requests hold and charge in the background, after the POST
 * that submitted it was answered: on a fleet the instance holding the account's batch lease may
 * be another than the one that took the batch, and takes it up at its next poll. The books are read
 * only once those requests settled too.
 */
export async function untilBatchesEnded(harness: Harness, accountId = harness.accountId, limitMs = 30_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    const active = await harness.gateway.store.db
      .selectFrom('batches')
      .select('id')
      .where('account_id', '=', accountId)
      .where('status', 'in', ACTIVE_STATUSES)
      .limit(1)
      .execute();
    if (active.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
