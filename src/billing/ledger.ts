import { addKeyUsage } from '../accounts/key-usage.js';
import { newRecordId } from '../accounts/record-id.js';
import { GatewayError } from '../core/errors.js';
import type { Db, Store } from '../store/store.js';
import { lockAccountBalance, writeAccountBalance, type AccountBalance } from './account-balance.js';
import { generationToRow } from './generations.js';
import { maxUnits } from './money.js';
import { checkKeySpendLimit } from './spend-limit.js';
import type { GenerationRecord, Hold, HoldRequest, Ledger } from './types.js';

export const DEFAULT_HOLD_TTL_MS = 15 * 60_000;

export interface LedgerOptions {
  /** How long a hold reserves credit before the reconciler may release it (default 15 minutes). */
  holdTtlMs?: number;
  now?: () => Date;
}

/**
 * Credit holds and settlements, each one short write transaction that locks the account row first.
 * A generation is charged at most once: its id is the generation record's primary key, so a second
 * settle (or a settle after a release that wrote the record) charges nothing, while a settle that
 * arrives after its hold expired still charges — never a double charge, never a lost one.
 */
export function createLedger(store: Store, options: LedgerOptions = {}): Ledger {
  const ttl = options.holdTtlMs ?? DEFAULT_HOLD_TTL_MS;
  const now = options.now ?? (() => new Date());
  return {
    hold: (request) => hold(store, request, now(), ttl),
    settle: (held, record) => finish(store, held, record, true, now()),
    release: (held, record) => finish(store, held, record, false, now()),
    releaseExpired: (at) => releaseExpired(store, at ?? now()),
  };
}

async function hold(store: Store, request: HoldRequest, at: Date, ttl: number): Promise<Hold> {
  if (request.amount < 0n) throw new RangeError('a hold amount cannot be negative');
  const held: Hold = { ...request, id: newRecordId('hold'), expiresAt: new Date(at.getTime() + ttl) };
  await store.write(async (tx) => {
    const account = await lockedAccount(store, tx, request.accountId);
    await checkKeySpendLimit(tx, request.keyId, request.amount, at);
    const spendable = account.balance - account.reserved;
    if (request.amount > spendable) {
      throw new GatewayError('payment_required', 'Insufficient credits: add credits to continue', {
        metadata: { required: request.amount.toString(), spendable: maxUnits(0n, spendable).toString() },
      });
    }
    await tx
      .insertInto('holds')
      .values({
        id: held.id,
        generation_id: held.generationId,
        account_id: held.accountId,
        workspace_id: held.workspaceId,
        key_id: held.keyId,
        amount_units: held.amount.toString(),
        expires_at: held.expiresAt.getTime(),
        created_at: at.getTime(),
      })
      .execute();
    await writeAccountBalance(tx, request.accountId, { ...account, reserved: account.reserved + request.amount });
  });
  return held;
}

/** Settles (`charged`) or releases a hold: unreserve it if still open, write the record once, charge once. */
async function finish(
  store: Store,
  held: Hold,
  record: GenerationRecord | undefined,
  charged: boolean,
  at: Date,
): Promise<void> {
  if (record && record.cost < 0n) throw new RangeError('a generation cost cannot be negative');
  await store.write(async (tx) => {
    const account = await lockedAccount(store, tx, held.accountId);
    const released = await tx.deleteFrom('holds').where('id', '=', held.id).returning('amount_units').executeTakeFirst();
    const written = record ? await insertRecord(tx, record, charged) : false;
    const cost = written && charged && record ? record.cost : 0n;
    if (!released && cost === 0n) return;
    await writeAccountBalance(tx, held.accountId, {
      balance: account.balance - cost,
      reserved: account.reserved - (released ? BigInt(released.amount_units) : 0n),
    });
    if (cost === 0n) return;
    await tx
      .insertInto('ledger_entries')
      .values({ id: newRecordId('led'), account_id: held.accountId, amount_units: cost.toString(), kind: 'charge', generation_id: held.generationId, created_at: at.getTime() })
      .execute();
    await addKeyUsage(tx, held.keyId, cost, at);
  });
}

/** True when this call wrote the record (it did not exist yet). */
async function insertRecord(tx: Db, record: GenerationRecord, charged: boolean): Promise<boolean> {
  const inserted = await tx
    .insertInto('generations')
    .values(generationToRow(record, charged))
    .onConflict((conflict) => conflict.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

async function releaseExpired(store: Store, at: Date): Promise<number> {
  const accounts = await store.db
    .selectFrom('holds')
    .select('account_id')
    .distinct()
    .where('expires_at', '<=', at.getTime())
    .execute();
  let count = 0;
  for (const { account_id: accountId } of accounts) {
    count += await store.write(async (tx) => {
      const account = await lockedAccount(store, tx, accountId);
      const expired = await tx
        .deleteFrom('holds')
        .where('account_id', '=', accountId)
        .where('expires_at', '<=', at.getTime())
        .returning('amount_units')
        .execute();
      const amount = expired.reduce((sum, row) => sum + BigInt(row.amount_units), 0n);
      await writeAccountBalance(tx, accountId, { ...account, reserved: account.reserved - amount });
      return expired.length;
    });
  }
  return count;
}

async function lockedAccount(store: Store, tx: Db, accountId: string): Promise<AccountBalance> {
  const account = await lockAccountBalance(store, tx, accountId);
  if (!account) throw new Error(`account ${accountId} does not exist`);
  return account;
}
