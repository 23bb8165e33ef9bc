import { commitNow, type Store } from '../store/store.js';
import { AccountQueues } from './account-queues.js';
import { pendingGenerationRow } from './generations.js';
import { ledgerTables } from './ledger-engine.js';
import { spendOwners, type AccountBalance, type HeldGeneration, type LimitBound, type UsageWindow } from './ledger-tables.js';
import type { Units } from './money.js';
import { judgeSpendLimits, limitWindows, type LimitWindow } from './spend-limit.js';
import type { Hold } from './types.js';

/** Most holds decided in one transaction. */
export const MAX_HOLDS_PER_BATCH = 64;

/** What a batch decided for one hold: nothing (taken), or the refusal it answers with. */
type Decision = Error | null;

/**
 * Holds kept in the database (PostgreSQL, where every instance reserves against the same rows),
 * taken together per account: the holds of an account that arrive while one of its batches is being
 * written wait, and are then decided in one transaction. The account's row is locked once, the
 * charges of every limited scope any of them names are read in one statement (the scopes' open
 * holds only where the account's whole reserve in their place would refuse one), each hold is
 * judged in turn (in the order they arrived) against that usage plus what the holds before it in
 * the batch took, exactly as if they had come one after another, and the ones that pass are written
 * in one statement. Concurrent holds of one account so share one lock, one read and one commit, where each
 * would otherwise hold the account's row through a transaction of its own. A hold alone, with no
 * limit to judge, is one conditional write; with limits, one round trip where the charges and the
 * account's reserve leave it room (`#takeWithinBound`), and the batch's judgement where they do not.
 * A batch is first offered that same round trip, all its holds at once: where the balance covers
 * their total and every window they count in has room for it, each of them passes one after
 * another. The judgement reads before it writes, so it holds the account's row from its first
 * round trip to its second, while the gateway answers the first; every other write of the account
 * waits for it. It is left for batches that come near a limit or the balance.
 */
export class HoldBatches {
  readonly #queues = new AccountQueues<Hold>(MAX_HOLDS_PER_BATCH, async (batch) => {
    const decisions = await this.#decide(batch.map(({ item }) => item));
    batch.forEach((waiting, index) => {
      const refusal = decisions[index];
      if (refusal) waiting.reject(refusal);
      else waiting.resolve();
    });
  });

  constructor(
    private readonly store: Store,
    private readonly instanceId: string | null,
    private readonly insufficient: (amount: Units, account: AccountBalance) => Error,
  ) {}

  /** Resolves once `hold` is written; rejects with its 402 when refused. */
  take(hold: Hold): Promise<void> {
    return this.#queues.add(hold.accountId, hold);
  }

  async #decide(holds: readonly Hold[]): Promise<Decision[]> {
    const windows = holds.map((hold) => limitWindows(spendOwners(hold), hold.limits ?? {}, hold.heldAt));
    const [only] = holds;
    const [onlyWindows] = windows;
    if (only && onlyWindows && holds.length === 1) {
      if (onlyWindows.length === 0) {
        // one conditional write: the account's row is locked only while it runs
        const taken = await this.store.writeStatement((db) => ledgerTables(this.store, db).reserveAndHold([this.#held(only)]));
        if (taken) return [null];
        const account = await ledgerTables(this.store, this.store.db).readAccount(only.accountId);
        if (!account) throw new Error(`account ${only.accountId} does not exist`);
        return [this.insufficient(only.amount, account)];
      }
      if (await this.#takeWithinBound([only], boundOf(onlyWindows))) return [null];
      // refused by the bound or the balance: judged below on what each window used
    } else if (holds.every((hold) => hold.amount > 0n) && (await this.#takeWithinBound(holds, boundOf(windows.flat())))) {
      // every hold reserving something, each passes where their total fits (a hold of nothing on a
      // window used to its limit is refused, so such a batch is judged)
      return holds.map(() => null);
    }
    return this.store.write(async (tx) => {
      const tables = ledgerTables(this.store, tx);
      // spend limits are judged under the account's lock, so that concurrent holds cannot both pass
      // one. The charges are asked for with the lock, after it: on PostgreSQL both go out at once,
      // and the charges, a statement of their own, read what was committed once the lock is held
      const accountId = holds[0]?.accountId ?? '';
      const usage = new BatchUsage(windows.flat());
      const [account, charged] = await Promise.all([
        tables.lockAccount(accountId),
        usage.windows.length > 0 ? tables.usedIn(accountId, usage.windows, 'charges') : [],
      ]);
      if (!account) throw new Error(`account ${accountId} does not exist`);
      // every open hold of a scope is one of the account's, and the account's reserve is what all of
      // them hold: the charges plus the reserve are at least what each window used, so a hold that
      // passes against them passes against what the window used. Only where one does not are the
      // holds themselves read: the account's pending rows, every one its traffic left for vacuum
      // among them on PostgreSQL
      usage.read(charged, account.reserved);
      let judged = this.#judge(holds, windows, usage, account);
      if (judged.limitRefused) {
        usage.read(await tables.usedIn(accountId, usage.windows, 'charges and holds'), 0n);
        judged = this.#judge(holds, windows, usage, account);
      }
      const written = tables.reserveAndHold(judged.taken);
      // everything is decided: the commit goes out with the reserve
      commitNow(tx);
      if (!(await written)) throw new Error(`account ${accountId} could not reserve what its locked balance covers`);
      return judged.decisions;
    });
  }

  /**
   * Holds taken in one round trip where the bound passes their total: the account's row locked, then
   * the reserve written on condition that the balance covers the total and each window's charges
   * plus the account's whole reserve (read after the lock) leave room for it, and the commit, all
   * sent at once. What the batch below would pass at its first reading, this passes; where it does
   * not, nothing is written and the batch judges the holds, reading the holds where it must.
   */
  async #takeWithinBound(holds: readonly Hold[], bound: readonly LimitBound[]): Promise<boolean> {
    const accountId = holds[0]?.accountId ?? '';
    return this.store.write(async (tx) => {
      const tables = ledgerTables(this.store, tx);
      const locked = tables.lockAccount(accountId);
      const written = tables.reserveAndHold(holds.map((hold) => this.#held(hold)), bound);
      commitNow(tx);
      const [, taken] = await Promise.all([locked, written]);
      return taken;
    });
  }

  /** Each hold judged in turn against `usage` and the account's balance, grown by the holds before it that pass. */
  #judge(holds: readonly Hold[], windows: readonly LimitWindow[][], usage: BatchUsage, account: AccountBalance) {
    let reserved = account.reserved;
    let limitRefused = false;
    const taken: HeldGeneration[] = [];
    const decisions = holds.map((hold, index): Decision => {
      try {
        judgeSpendLimits(windows[index] ?? [], usage.usedIn(windows[index] ?? []), hold.amount);
      } catch (refusal) {
        limitRefused = true;
        return refusal as Error;
      }
      if (account.balance - reserved < hold.amount) return this.insufficient(hold.amount, { balance: account.balance, reserved });
      reserved += hold.amount;
      usage.add(hold);
      taken.push(this.#held(hold));
      return null;
    });
    return { decisions, taken, limitRefused };
  }

  #held(hold: Hold): HeldGeneration {
    return { hold, pending: pendingGenerationRow(hold, this.instanceId, true) };
  }
}

/** The usage of the distinct windows a batch's holds are judged in, grown by each hold taken. */
class BatchUsage {
  readonly windows: UsageWindow[] = [];
  readonly #used = new Map<string, Units>();

  constructor(windows: readonly LimitWindow[]) {
    for (const window of windows) {
      const key = windowKey(window);
      if (this.#used.has(key)) continue;
      this.#used.set(key, 0n);
      this.windows.push({ ref: window.ref, start: window.start });
    }
  }

  /** What `usedIn` read for `windows`, in their order, each plus `extra`; what holds were added before is forgotten. */
  read(used: readonly Units[], extra: Units): void {
    this.windows.forEach((window, index) => this.#used.set(windowKey(window), (used[index] ?? 0n) + extra));
  }

  usedIn(windows: readonly UsageWindow[]): Units[] {
    return windows.map((window) => this.#used.get(windowKey(window)) ?? 0n);
  }

  /** A hold taken: it counts in every window of a scope it belongs to that it was taken in. */
  add(hold: Hold): void {
    const owners = spendOwners(hold);
    for (const window of this.windows) {
      if (owners[window.ref.scope] === window.ref.id && (window.start === null || hold.heldAt.getTime() >= window.start)) {
        const key = windowKey(window);
        this.#used.set(key, (this.#used.get(key) ?? 0n) + hold.amount);
      }
    }
  }
}

/** The distinct windows of `windows`, each bounded by the lowest limit named for it. */
function boundOf(windows: readonly LimitWindow[]): LimitBound[] {
  const bound = new Map<string, LimitBound>();
  for (const { ref, start, limit } of windows) {
    const key = windowKey({ ref, start });
    const seen = bound.get(key);
    if (!seen || limit.limit < seen.limit) bound.set(key, { ref, start, limit: limit.limit });
  }
  return [...bound.values()];
}

function windowKey({ ref, start }: UsageWindow): string {
  return `${ref.scope}\u0000${ref.id}\u0000${start ?? 'all'}`;
}
