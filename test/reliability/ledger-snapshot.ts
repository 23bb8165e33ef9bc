import { openHolds, recordedCharges } from '../support/recorded-charges.js';
import type { Store } from '../../src/store/store.js';

/** An account's money as one consistent read of the store sees it. */
export interface LedgerSnapshot {
  balance: bigint;
  reserved: bigint;
  deposits: bigint;
  /** Every charge, by generation id: each charged generation's record, and any charge entry of the ledger beside it. */
  charges: Map<string, bigint[]>;
  /** Amounts of the account's open holds. */
  holds: bigint[];
}

/** Reads the account row, its ledger entries, its charged records and its open holds in one read transaction. */
export async function ledgerSnapshot(store: Store, accountId: string): Promise<LedgerSnapshot> {
  const read = store.engine === 'postgres' ? store.db.transaction().setIsolationLevel('repeatable read') : store.db.transaction();
  return read.execute(async (tx) => {
    const account = await tx.selectFrom('accounts').select(['balance_units', 'reserved_units']).where('id', '=', accountId).executeTakeFirstOrThrow();
    const entries = await tx.selectFrom('ledger_entries').select(['kind', 'amount_units', 'generation_id']).where('account_id', '=', accountId).execute();
    const records = await recordedCharges(tx, accountId);
    const holds = await openHolds(tx, accountId);
    const charges = new Map<string, bigint[]>();
    const charge = (generationId: string, amount: string) => charges.set(generationId, [...(charges.get(generationId) ?? []), BigInt(amount)]);
    for (const record of records) charge(record.generation_id, record.amount_units);
    let deposits = 0n;
    for (const entry of entries) {
      if (entry.kind === 'deposit') deposits += BigInt(entry.amount_units);
      else charge(entry.generation_id ?? '', entry.amount_units);
    }
    return {
      balance: BigInt(account.balance_units),
      reserved: BigInt(account.reserved_units),
      deposits,
      charges,
      holds: holds.map((hold) => BigInt(hold.amount_units ?? '0')),
    };
  });
}

/**
 * What breaks the ledger's invariant in a snapshot: the balance is deposits less charges, the
 * reserved credit is what the open holds hold, and a generation is charged at most once.
 */
export function invariantBreaches(snapshot: LedgerSnapshot): string[] {
  const breaches: string[] = [];
  const charged = [...snapshot.charges.values()].flat().reduce((sum, amount) => sum + amount, 0n);
  if (snapshot.balance !== snapshot.deposits - charged) breaches.push(`balance ${snapshot.balance} ≠ deposits ${snapshot.deposits} − charges ${charged}`);
  const held = snapshot.holds.reduce((sum, amount) => sum + amount, 0n);
  if (snapshot.reserved !== held) breaches.push(`reserved ${snapshot.reserved} ≠ open holds ${held}`);
  for (const [generation, amounts] of snapshot.charges) if (amounts.length > 1) breaches.push(`${generation} charged ${amounts.length} times`);
  return breaches;
}
