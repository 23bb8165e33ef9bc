import type BetterSqlite3 from 'better-sqlite3';
import type { Store } from '../store/store.js';
import { sqliteSettleHolds } from './ledger-tables-sqlite.js';
import type { HoldSettlement } from './ledger-tables.js';

/**
 * Settlements on SQLite written together: the settlements that arrive while their write waits in
 * the write batch's queue join it, and are written as one (see `sqliteSettleHolds`: each record once,
 * the money of all of them moved once per account and spend row). Each resolves once that write
 * committed; if it fails, every settlement in it is refused, and none of them wrote anything.
 */
export class SettlementQueue {
  #waiting: HoldSettlement[] = [];
  /** The write the next settlements join: queued, not yet started. */
  #next: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly database: BetterSqlite3.Database,
  ) {}

  add(settlement: HoldSettlement): Promise<void> {
    this.#waiting.push(settlement);
    this.#next ??= this.store.writeStatement(async () => {
      // from here on, settlements join the next write
      const settlements = this.#waiting;
      this.#waiting = [];
      this.#next = undefined;
      sqliteSettleHolds(this.database, settlements);
    });
    return this.#next;
  }
}
