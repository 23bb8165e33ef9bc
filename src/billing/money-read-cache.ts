import type BetterSqlite3 from 'better-sqlite3';
import { LIFETIME_DAY } from '../accounts/scope-usage.js';
import { SPEND_SCOPES, type SpendScope } from '../accounts/types.js';
import { ForeignCommits } from '../store/foreign-commits.js';
import { sqliteRollbacks } from '../store/write-batcher.js';
import { OPEN_HOLD, type AccountBalance, type UsageWindow } from './ledger-tables.js';
import type { Units } from './money.js';

/** Past this many remembered values the cache starts again (windows of past days are never read again). */
const MOST_REMEMBERED = 50_000;

/**
 * What a hold reads on SQLite (an account's balance, what each limited scope was charged in its
 * window), remembered between holds and kept exact by the writes that change it. Every write of a
 * balance or of a spend row on this connection goes through the ledger's statements, which tell the
 * cache the value they wrote (a balance) or added (a spend row). The cache starts again when that
 * can no longer be trusted:
 *
 * - another connection committed (`ForeignCommits`, looked for at most every 10 ms): the admin CLI
 *   adding credit. Another process only ever adds credit, so a deposit is seen within 10 ms and
 *   nothing can be overspent meanwhile;
 * - the write batch undid writes (a savepoint or a batch rolled back, `sqliteRollbacks`), which
 *   may have been told to the cache;
 * - a hold was written to the database (an open hold on a pending generation's row counts in a
 *   scope's usage). Usage is remembered only while there is none: on SQLite holds live in process
 *   memory, and open holds in the database are only ever left from before.
 */
export class MoneyReadCache {
  readonly #accounts = new Map<string, AccountBalance>();
  /** Per scope, per owner: what each window (by its start; null for all time) was charged. */
  readonly #charged: Record<SpendScope, Map<string, Map<number | null, Units>>> = { key: new Map(), workspace: new Map(), account: new Map() };
  #size = 0;
  readonly #foreignCommits: ForeignCommits;
  readonly #anyHold: BetterSqlite3.Statement;
  #seenVersion = -1;
  #seenRollbacks = -1;

  constructor(private readonly database: BetterSqlite3.Database) {
    this.#foreignCommits = ForeignCommits.of(database);
    this.#anyHold = database.prepare(`SELECT 1 FROM generations WHERE ${OPEN_HOLD} LIMIT 1`).pluck();
  }

  /**
   * What each window was charged, and the account's balance when `accountId` is given, if all of
   * it is remembered and still exact.
   */
  read(accountId: string | undefined, windows: readonly UsageWindow[]): { account: AccountBalance | null; used: Units[] } | undefined {
    this.#check();
    const account = accountId === undefined ? null : this.#accounts.get(accountId);
    if (account === undefined) return undefined;
    const used: Units[] = [];
    for (const { ref, start } of windows) {
      const charged = this.#charged[ref.scope].get(ref.id)?.get(start);
      if (charged === undefined) return undefined;
      used.push(charged);
    }
    return { account, used };
  }

  /**
   * Remembers what was read in one statement: the account, and the windows' usage where no hold is
   * stored (otherwise that usage includes holds, which only their rows know).
   */
  remember(accountId: string | undefined, account: AccountBalance | null, windows: readonly UsageWindow[], used: readonly Units[]): void {
    this.#check();
    if (accountId !== undefined && account) this.wroteAccount(accountId, account);
    if (windows.length === 0 || this.holdsStored()) return;
    windows.forEach(({ ref, start }, index) => {
      const byOwner = this.#charged[ref.scope];
      let byStart = byOwner.get(ref.id);
      if (!byStart) byOwner.set(ref.id, (byStart = new Map()));
      if (!byStart.has(start)) this.#size += 1;
      byStart.set(start, used[index] ?? 0n);
    });
    if (this.#size > MOST_REMEMBERED) this.#forget();
  }

  /** The account's balance was written as `balance`. */
  wroteAccount(accountId: string, balance: AccountBalance): void {
    if (!this.#accounts.has(accountId)) this.#size += 1;
    this.#accounts.set(accountId, balance);
  }

  /** `units` were added to the spend row of (scope, owner, day): each window counting that day moves. */
  addedSpend(scope: SpendScope, owner: string, day: number, units: Units): void {
    const byStart = this.#charged[scope].get(owner);
    if (!byStart) return;
    for (const [start, charged] of byStart) {
      if (start === null ? day === LIFETIME_DAY : day !== LIFETIME_DAY && day >= start) byStart.set(start, charged + units);
    }
  }

  /** True when a hold is open in the database (the first entry of one partial index looked for: 3 µs or less). */
  holdsStored(): boolean {
    return this.#anyHold.get() !== undefined;
  }

  /** A hold was written to the database. */
  wroteHold(): void {
    this.#forget();
  }

  #check(): void {
    const rollbacks = sqliteRollbacks(this.database);
    const version = this.#foreignCommits.version();
    if (version === this.#seenVersion && rollbacks === this.#seenRollbacks) return;
    this.#forget();
    this.#seenVersion = version;
    this.#seenRollbacks = rollbacks;
  }

  #forget(): void {
    this.#accounts.clear();
    for (const scope of SPEND_SCOPES) this.#charged[scope].clear();
    this.#size = 0;
  }
}
