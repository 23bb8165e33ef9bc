import { LIFETIME_DAY } from '../accounts/scope-usage.js';
import { SPEND_SCOPES, type SpendScope } from '../accounts/types.js';
import type { AccountBalance, Charge } from './ledger-tables.js';
import type { Units } from './money.js';

/** What several settlements add to one spend row: its scope, owner and UTC day (or the lifetime total). */
export interface SpendMove {
  scope: SpendScope;
  owner: string;
  day: number;
  units: Units;
}

/**
 * The money several settlements move on SQLite, gathered so that it is written once: one balance
 * write per account (its balance and its reserve, each by the sum of what was added to it) and one
 * write per spend row. (On PostgreSQL a batch of settlements sums the same in its one statement,
 * `settleHoldsStatement`, as a lone settlement's statement always has.) Each charge counts in the
 * UTC day of its hold and in the lifetime total of its three scopes. The spend rows of one account
 * are those of its own key, workspace and account.
 */
export class MoneyMoves {
  readonly #accounts = new Map<string, { change: AccountBalance; spend: Map<string, SpendMove> }>();

  /** Moves the account's balance and reserve by `change`; a charge counts in its scopes' spend. */
  add(accountId: string, change: AccountBalance, charge: Charge | null): void {
    let moves = this.#accounts.get(accountId);
    if (!moves) {
      moves = { change: { balance: 0n, reserved: 0n }, spend: new Map() };
      this.#accounts.set(accountId, moves);
    }
    moves.change = { balance: moves.change.balance + change.balance, reserved: moves.change.reserved + change.reserved };
    if (!charge) return;
    for (const scope of SPEND_SCOPES) {
      addSpend(moves.spend, { scope, owner: charge.owners[scope], day: charge.dayStart, units: charge.amount });
      addSpend(moves.spend, { scope, owner: charge.owners[scope], day: LIFETIME_DAY, units: charge.amount });
    }
  }

  /** Each account's change and spend rows, accounts in the order of their ids (every writer locks them in that order). */
  byAccount(): Array<{ accountId: string; change: AccountBalance; spend: SpendMove[] }> {
    return [...this.#accounts]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([accountId, { change, spend }]) => ({ accountId, change, spend: [...spend.values()] }));
  }
}

function addSpend(rows: Map<string, SpendMove>, move: SpendMove): void {
  const key = `${move.scope}\u0000${move.owner}\u0000${move.day}`;
  const row = rows.get(key);
  if (row) row.units += move.units;
  else rows.set(key, move);
}
