import type { Store } from '../store/store.js';
import { AccountQueues, type Waiting } from './account-queues.js';
import { ledgerTables } from './ledger-engine.js';
import type { HoldSettlement } from './ledger-tables.js';

/** Most settlements written in one transaction. */
export const MAX_SETTLEMENTS_PER_BATCH = 64;

/**
 * Settlements kept in the database (PostgreSQL), written together per account. A settlement locks
 * its account's row from its write until its commit, so the settlements of one account go one at
 * a time: about 540 a second measured on one local server, whatever the number of connections. Here the
 * settlements of an account that arrive while one of its writes is under way wait for it, and are
 * then written in one transaction (LedgerTables.settleHolds): their holds and records by one
 * statement, then the money of all of them at once, one write of the account's row and one of each
 * spend row, last, so that the row is locked only from that write to the commit. A settlement
 * alone is its one statement, as before.
 *
 * No lock is taken up front, even where spend limits are judged: a hold reads every scope's charges
 * and holds in one statement (`usedIn`), so it sees the settlements of a batch, each a move from
 * held to charged, all or none of them, never half of one.
 *
 * Each settlement still decides on its own whether it charges (only the one that writes its record
 * does; a second settlement of a hold, written after the first, finds it gone), so writing them
 * together changes nothing of what they write. Should the transaction fail,
 * each settlement of it is written again on its own: one that cannot be written fails alone.
 */
export class SettlementBatches {
  readonly #queues = new AccountQueues<HoldSettlement>(MAX_SETTLEMENTS_PER_BATCH, async (batch) => {
    if (batch.length > 1 && (await this.#writeTogether(batch))) return;
    for (const waiting of batch) await this.#writeAlone(waiting);
  });

  constructor(private readonly store: Store) {}

  /** Resolves once `settlement` is committed. */
  add(settlement: HoldSettlement): Promise<void> {
    return this.#queues.add(settlement.accountId, settlement);
  }

  /** True once every settlement of `batch` is committed; false when the transaction failed, having written nothing. */
  async #writeTogether(batch: readonly Waiting<HoldSettlement>[]): Promise<boolean> {
    try {
      await this.store.write((tx) => ledgerTables(this.store, tx).settleHolds(batch.map(({ item }) => item)));
    } catch {
      return false;
    }
    for (const waiting of batch) waiting.resolve();
    return true;
  }

  async #writeAlone({ item, resolve, reject }: Waiting<HoldSettlement>): Promise<void> {
    try {
      await this.store.writeStatement((db) => ledgerTables(this.store, db).settleHold(item));
      resolve();
    } catch (error) {
      reject(error);
    }
  }
}
