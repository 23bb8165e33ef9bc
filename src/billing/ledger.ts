import { newTimeOrderedRecordId } from '../accounts/record-id.js';
import { dayStart } from '../accounts/usage-window.js';
import { ERROR_CODES, GatewayError, INTERNAL_ERROR_MESSAGE } from '../core/errors.js';
import { JoinedWrites } from '../store/joined-writes.js';
import type { Store } from '../store/store.js';
import { closedPendingRecord } from './generation-record.js';
import { generationToRow } from './generations.js';
import { HoldBatches } from './hold-batches.js';
import { ledgerTables } from './ledger-engine.js';
import { sqliteLedgerReadsNow, sqliteSettleHolds } from './ledger-tables-sqlite.js';
import { spendOwners, type AccountBalance, type HoldSettlement } from './ledger-tables.js';
import { formatUsd, maxUnits, sumUnits, type Units } from './money.js';
import { ProcessHolds } from './process-holds.js';
import { SettlementBatches } from './settlement-batches.js';
import type { GenerationRecord, Hold, HoldRequest, Ledger } from './types.js';

export const DEFAULT_HOLD_TTL_MS = 15 * 60_000;

export interface LedgerOptions {
  /** How long a hold reserves credit before the reconciler may release it (default 15 minutes). */
  holdTtlMs?: number;
  now?: () => Date;
  /** The instance this ledger serves: stamped on its holds and pending generations (null: none). */
  instanceId?: string;
  /**
   * Keep open holds in this process's memory rather than in the database (SQLite only, the engine
   * of one process; see process-holds.ts). A fleet keeps them in PostgreSQL, where every instance
   * reserves against the same rows.
   */
  holdsInProcess?: boolean;
}

/**
 * Credit holds and settlements, each one short write that locks the account row (the holds of one
 * account arriving together share one, see hold-batches.ts, and so do its settlements,
 * settlement-batches.ts). A hold writes its generation as
 * `pending` in the same transaction, so every admitted generation is readable at once. A generation is charged at most once: only the settlement that turns its
 * pending row into the final record (or writes the record where there was none) charges, so a
 * second settle, a settle after a release, or a settle after the recovery of a dead instance
 * charges nothing, while a settle that arrives after its hold expired still charges — never a
 * double charge, never a lost one.
 */
export function createLedger(store: Store, options: LedgerOptions = {}): Ledger {
  const ttl = options.holdTtlMs ?? DEFAULT_HOLD_TTL_MS;
  const now = options.now ?? (() => new Date());
  const instanceId = options.instanceId ?? null;
  const common = {
    recordRefusal: (record: GenerationRecord) => recordRefusal(store, record),
  };
  if (options.holdsInProcess) {
    if (!store.sqlite) throw new Error('holds are kept in process only on SQLite, the engine of one process');
    const { sqlite } = store;
    const open = new ProcessHolds(sqliteLedgerReadsNow(sqlite));
    // settlements arriving together are one write (each record once, the money of all of them
    // moved once per account and spend row); their holds were kept in memory and reserve nothing there
    const settlements = new JoinedWrites<HoldSettlement>(store, (joined) => sqliteSettleHolds(sqlite, joined));
    return {
      ...common,
      async hold(request) {
        const held = openedHold(request, now(), ttl);
        open.take(held, insufficientCredits);
        return held;
      },
      // the hold reserves its credit until the settlement committed, and is dropped only then
      settle: async (held, record) => {
        await settlements.add(settlementOf(held, record, true, now(), instanceId));
        open.drop(held.id);
      },
      release: async (held, record) => {
        await settlements.add(settlementOf(held, record, false, now(), instanceId));
        open.drop(held.id);
      },
      releaseExpired: async (at) => open.dropExpired(at ?? now()) + (await releaseExpired(store, at ?? now())),
      reservedInProcess: (accountId) => open.reservedBy(accountId),
    };
  }
  const batches = new HoldBatches(store, instanceId, insufficientCredits);
  const settlements = new SettlementBatches(store);
  return {
    ...common,
    async hold(request) {
      const held = openedHold(request, now(), ttl);
      await batches.take(held);
      return held;
    },
    settle: async (held, record) => settlements.add(settlementOf(held, record, true, now(), instanceId)),
    release: async (held, record) => settlements.add(settlementOf(held, record, false, now(), instanceId)),
    releaseExpired: (at) => releaseExpired(store, at ?? now()),
  };
}

/** The hold `request` asks for, taken `at`: its own id, expiring after `ttl` ms. */
function openedHold(request: HoldRequest, at: Date, ttl: number): Hold {
  if (request.amount < 0n) throw new RangeError('a hold amount cannot be negative');
  if (request.pending.id !== request.generationId || request.pending.status !== 'pending') {
    throw new RangeError('a hold writes its own generation, pending');
  }
  // named one by one: spreading the request costs more than the rest of the hold taken in process
  return {
    id: newTimeOrderedRecordId('hold'),
    generationId: request.generationId,
    accountId: request.accountId,
    workspaceId: request.workspaceId,
    keyId: request.keyId,
    amount: request.amount,
    limits: request.limits,
    pending: request.pending,
    heldAt: at,
    expiresAt: new Date(at.getTime() + ttl),
  };
}

/** The 402 of a hold the spendable balance does not cover (spec 02), naming what it needs and what there is. */
function insufficientCredits(amount: Units, account: AccountBalance): GatewayError {
  const spendable = maxUnits(0n, account.balance - account.reserved);
  const message = `Insufficient credits: this request needs up to ${formatUsd(amount)} USD and ${formatUsd(spendable)} USD is spendable; add credits to continue`;
  return new GatewayError('payment_required', message, { metadata: { required: amount.toString(), spendable: spendable.toString() } });
}

/**
 * What settling (`charged`) or releasing a hold writes: unreserve it if still open, close the
 * generation once, charge once. Refuses a negative cost, and a charge above the hold.
 */
function settlementOf(held: Hold, given: GenerationRecord | undefined, charged: boolean, at: Date, instanceId: string | null): HoldSettlement {
  if (given && given.cost < 0n) throw new RangeError('a generation cost cannot be negative');
  // Billing is prepaid: the hold is the most a request may cost (settlement caps the charge to it).
  if (charged && given && given.cost > held.amount) throw new RangeError('a charge cannot exceed its hold');
  const record = given ?? unservedRecord(held, at);
  const cost = charged ? record.cost : 0n;
  return {
    holdId: held.id,
    accountId: held.accountId,
    // the hold's own row decides between two settlements of one hold: the second finds it gone;
    // a record written whole (its hold was never stored) names its instance and hold as a pending row would
    record: generationToRow(record, charged, held, instanceId),
    // the charge counts in the window its hold was taken in, as the hold did
    charge: cost === 0n ? null : { amount: cost, owners: spendOwners(held), dayStart: dayStart(held.heldAt) },
  };
}

/** What a hold released without a record leaves: its generation, ended by a fault of the service. */
export function unservedRecord(held: Hold, at: Date): GenerationRecord {
  return closedPendingRecord(held.pending, {
    error: { status: ERROR_CODES.server.status, message: INTERNAL_ERROR_MESSAGE },
    finishedAt: at.getTime(),
    cost: 0n,
    costLines: [],
  });
}

/** Writes an uncharged record for a request that never held credit; an id already recorded is kept. */
async function recordRefusal(store: Store, record: GenerationRecord): Promise<void> {
  await store.write(async (tx) => {
    await ledgerTables(store, tx).insertGeneration(generationToRow(record, false));
  });
}

/**
 * Releases the database's holds past their expiry, an account at a time: each hold's expiry is
 * cleared on its pending row (which stays pending: a settlement arriving later still charges),
 * then its amount leaves the account's reserve. The rows are locked before the account's, the
 * order a settlement takes them in.
 */
async function releaseExpired(store: Store, at: Date): Promise<number> {
  // `status` and the expiry written out in each statement: each then reads the open holds' index
  const accounts = await store.db
    .selectFrom('generations')
    .select('account_id')
    .distinct()
    .where('status', '=', 'pending')
    .where('hold_expires_at', '<=', at.getTime())
    .execute();
  let count = 0;
  for (const { account_id: accountId } of accounts) {
    count += await store.write(async (tx) => {
      const released = await tx
        .updateTable('generations')
        .set({ hold_expires_at: null })
        .where('account_id', '=', accountId)
        .where('status', '=', 'pending')
        .where('hold_expires_at', '<=', at.getTime())
        .returning('held_units')
        .execute();
      if (released.length === 0) return 0;
      const tables = ledgerTables(store, tx);
      const account = await tables.lockAccount(accountId);
      if (!account) throw new Error(`account ${accountId} does not exist`);
      const amount = sumUnits(released.map((row) => row.held_units ?? '0'));
      await tables.writeAccount(accountId, { ...account, reserved: account.reserved - amount });
      return released.length;
    });
  }
  return count;
}
