import type { Store } from '../../src/store/store.js';

/** An account's money as one consistent read of the store sees it. */
export interface LedgerSnapshot {
  balance: bigint;
  reserved: bigint;
  deposits: bigint;
  /** Every charge entry, by generation id. */
  charges: Map<string, bigint[]>;
  /** Amounts of the account's open holds. */
  holds: bigint[];
}

/** Reads the account row, its ledger entries and its open holds in one read transaction. */
export async function ledgerSnapshot(store: Store, accountId: string): Promise<LedgerSnapshot> {
  const read = store.engine === 'postgres' ? store.db.transaction().setIsolationLevel('repeatable read') : store.db.transaction();
  return read.execute(async (tx) => {
    const account = await tx.selectFrom('accounts').select(['balance_units', 'reserved_units']).where('id', '=', accountId).executeTakeFirstOrThrow();
    const entries = await tx.selectFrom('ledger_entries').select(['kind', 'amount_units', 'generation_id']).where('account_id', '=', accountId).execute();
    const holds = await tx.selectFrom('holds').select('amount_units').where('account_id', '=', accountId).execute();
    const charges = new Map<string, bigint[]>();
    let deposits = 0n;
    for (const entry of entries) {
      if (entry.kind === 'deposit') deposits += BigInt(entry.amount_units);
      else charges.set(entry.generation_id ?? '', [...(charges.get(entry.generation_id ?? '') ?? []), BigInt(entry.amount_units)]);
    }
    return {
      balance: BigInt(account.balance_units),
      reserved: BigInt(account.reserved_units),
      deposits,
      charges,
      holds: holds.map((hold) => BigInt(hold.amount_units)),
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
