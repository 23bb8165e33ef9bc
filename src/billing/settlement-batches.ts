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
 * then written by one statement (LedgerTables.settleHolds): their holds, records and entries, then
 * the money of all of them at once, one write of the account's row and one of each spend row. It
 * runs on its own, with no transaction around it, so it costs the database one round trip and one
 * commit, and the account's row is locked only from its write to that commit. A settlement alone
 * is its one statement, as before.
 *
 * No lock is taken up front, even where spend limits are judged: a hold reads every scope's charges
 * and holds in one statement (`usedIn`), so it sees the settlements of a batch, each a move from
 * held to charged, all or none of them, never half of one.
 *
 * Each settlement still decides on its own whether it charges (only the one that writes its record
 * does; a second settlement of a hold, written after the first, finds it gone), so writing them
 * together changes nothing of what they write, and writing one again changes nothing at all. Should
 * the batch's write fail, each settlement of it is written again on its own: one that cannot be
 * written fails alone.
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

  /**
   * True once every settlement of `batch` is committed; false when its write failed (a batch that
   * settles one hold twice is two statements, the first of which may have committed: written
   * again, its settlements change nothing).
   */
  async #writeTogether(batch: readonly Waiting<HoldSettlement>[]): Promise<boolean> {
    try {
      await this.store.writeStatement((db) => ledgerTables(this.store, db).settleHolds(batch.map(({ item }) => item)));
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
