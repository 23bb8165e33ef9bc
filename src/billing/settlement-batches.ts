import type { Store } from '../store/store.js';
import { ledgerTables } from './ledger-engine.js';
import type { HoldSettlement } from './ledger-tables.js';

/** Most settlements written in one transaction. */
export const MAX_SETTLEMENTS_PER_BATCH = 64;

interface Waiting {
  settlement: HoldSettlement;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Settlements kept in the database (PostgreSQL), written together per account. A settlement locks
 * its account's row from its write until its commit, so the settlements of one account go one at
 * a time: about 540 a second on one local server, whatever the number of connections. Here the
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
 * Each statement decides on its own whether it charges (a second settlement of a hold finds it
 * gone), so writing them together changes nothing of what they write. Should the transaction fail,
 * each settlement of it is written again on its own: one that cannot be written fails alone.
 */
export class SettlementBatches {
  readonly #waiting = new Map<string, Waiting[]>();

  constructor(private readonly store: Store) {}

  /** Resolves once `settlement` is committed. */
  add(settlement: HoldSettlement): Promise<void> {
    return new Promise((resolve, reject) => {
      const queue = this.#waiting.get(settlement.accountId);
      if (queue) {
        queue.push({ settlement, resolve, reject });
        return;
      }
      this.#waiting.set(settlement.accountId, [{ settlement, resolve, reject }]);
      void this.#drain(settlement.accountId);
    });
  }

  /** Writes the account's waiting settlements, a batch at a time, until none wait. */
  async #drain(accountId: string): Promise<void> {
    for (let queue = this.#waiting.get(accountId); queue && queue.length > 0; queue = this.#waiting.get(accountId)) {
      const batch = queue.splice(0, MAX_SETTLEMENTS_PER_BATCH);
      if (batch.length > 1 && (await this.#writeTogether(batch))) continue;
      for (const waiting of batch) await this.#writeAlone(waiting);
    }
    this.#waiting.delete(accountId);
  }

  /** True once every settlement of `batch` is committed; false when the transaction failed, having written nothing. */
  async #writeTogether(batch: readonly Waiting[]): Promise<boolean> {
    try {
      await this.store.write((tx) => ledgerTables(this.store, tx).settleHolds(batch.map(({ settlement }) => settlement)));
    } catch {
      return false;
    }
    for (const waiting of batch) waiting.resolve();
    return true;
  }

  async #writeAlone({ settlement, resolve, reject }: Waiting): Promise<void> {
    try {
      await this.store.writeStatement((db) => ledgerTables(this.store, db).settleHold(settlement));
      resolve();
    } catch (error) {
      reject(error);
    }
  }
}
