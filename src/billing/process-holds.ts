import { SPEND_SCOPES, type SpendScope } from '../accounts/types.js';
import { dayStart } from '../accounts/usage-window.js';
import type { LedgerReadsNow } from './ledger-tables-sqlite.js';
import { spendOwners, type AccountBalance, type UsageWindow } from './ledger-tables.js';
import type { Units } from './money.js';
import { judgeSpendLimits, limitWindows } from './spend-limit.js';
import type { Hold } from './types.js';

/**
 * The open holds of a gateway that is the only process serving its database (SQLite): kept in
 * memory, since a hold is a reservation that dies with the process holding it. Taking one writes
 * nothing: the account's balance and the scopes' charges are read from the database (most often as
 * remembered, see money-read-cache.ts) and what this process has reserved is added, and the decision and the reservation happen in one synchronous
 * step, so two holds cannot both pass on the same credit. A hold is dropped only once its settlement
 * committed (until then its credit counts twice, never zero times). The settlement itself still
 * writes the charge, the spend and the generation record in one transaction, and a stream still
 * writes its pending generation when it commits, so a crash bills what was delivered.
 *
 * Reads see what the write batch has written so far, committed or not: only settlements and
 * deposits write money, and a settlement's uncommitted charge is read while its hold still
 * reserves the same credit (the decision errs towards refusing, never towards overspending).
 */
export class ProcessHolds {
  readonly #open = new Map<string, Hold>();
  readonly #reservedByAccount = new Map<string, Units>();
  /** Per scope, per owner: what its open holds reserve by the UTC day they were taken on. */
  readonly #heldByDay: Record<SpendScope, Map<string, Map<number, Units>>> = { key: new Map(), workspace: new Map(), account: new Map() };

  constructor(private readonly reads: LedgerReadsNow) {}

  /**
   * Reserves `hold` if its account's spendable balance and every spend limit on it allow; otherwise
   * throws the 402 the database ledger throws (see `insufficient`), reserving nothing.
   */
  take(hold: Hold, insufficient: (amount: Units, account: AccountBalance) => Error): void {
    const windows = limitWindows(spendOwners(hold), hold.limits ?? {}, hold.heldAt);
    // one read: the balance, and each limited scope's charges and the holds left in the database
    // (taken before holds were kept in process), which count as this process's do
    const { account, used } = this.reads.accountAndUsage(hold.accountId, windows);
    if (!account) throw new Error(`account ${hold.accountId} does not exist`);
    judgeSpendLimits(windows, used.map((units, index) => units + this.#heldIn(windows[index])), hold.amount);
    const reserved = account.reserved + this.reservedBy(hold.accountId);
    if (account.balance - reserved < hold.amount) throw insufficient(hold.amount, { balance: account.balance, reserved });
    this.#open.set(hold.id, hold);
    this.#reservedByAccount.set(hold.accountId, this.reservedBy(hold.accountId) + hold.amount);
    this.#countHeld(hold, hold.amount);
  }

  /** Ends a hold (settled, released or expired); one already dropped changes nothing. */
  drop(holdId: string): void {
    const hold = this.#open.get(holdId);
    if (!hold) return;
    this.#open.delete(holdId);
    this.#countHeld(hold, -hold.amount);
    const left = this.reservedBy(hold.accountId) - hold.amount;
    if (left === 0n) this.#reservedByAccount.delete(hold.accountId);
    else this.#reservedByAccount.set(hold.accountId, left);
  }

  /** Drops the holds past their expiry; returns how many. */
  dropExpired(at: Date): number {
    const expired = [...this.#open.values()].filter((hold) => hold.expiresAt.getTime() <= at.getTime());
    for (const hold of expired) this.drop(hold.id);
    return expired.length;
  }

  /** What this process's open holds reserve of the account's balance. */
  reservedBy(accountId: string): Units {
    return this.#reservedByAccount.get(accountId) ?? 0n;
  }

  /**
   * What the window's scope's open holds taken in it reserve. A window starts at a UTC midnight (or
   * is all time), so a hold was taken in it exactly when the day it was taken on starts in it.
   */
  #heldIn(window: UsageWindow | undefined): Units {
    if (!window) return 0n;
    let held = 0n;
    for (const [day, units] of this.#heldByDay[window.ref.scope].get(window.ref.id) ?? []) {
      if (window.start === null || day >= window.start) held += units;
    }
    return held;
  }

  #countHeld(hold: Hold, units: Units): void {
    const owners = spendOwners(hold);
    const day = dayStart(hold.heldAt);
    for (const scope of SPEND_SCOPES) {
      const byOwner = this.#heldByDay[scope];
      const owner = owners[scope];
      const byDay = byOwner.get(owner) ?? new Map<number, Units>();
      const left = (byDay.get(day) ?? 0n) + units;
      if (left === 0n) byDay.delete(day);
      else byDay.set(day, left);
      if (byDay.size === 0) byOwner.delete(owner);
      else byOwner.set(owner, byDay);
    }
  }
}
