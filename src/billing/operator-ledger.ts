import { newRecordId } from '../accounts/record-id.js';
import type { Store } from '../store/store.js';
import { generationToRow } from './generations.js';
import { unservedRecord } from './ledger.js';
import type { GenerationRecord, Hold, Ledger } from './types.js';

/**
 * The account the operator's own requests (capability probes) run under. No account has this id
 * (record ids are `acct_…`), so no customer's balance, spend limit or usage ever sees them, and
 * `GET /generation`, which answers only records of the caller's own account, never shows one.
 */
export const OPERATOR_ACCOUNT_ID = 'operator';

/** How long such a hold would last; nothing reads it, since the hold reserves nothing. */
const HOLD_TTL_MS = 15 * 60_000;

/**
 * The ledger the operator's own requests (probes) are run with. They are the operator's cost, never
 * an account's: the operator pays the provider directly, so a hold reserves no credit and is never
 * written, and a settlement writes only the generation record, once, under the operator's ids, with
 * the cost the endpoint's prices give (what the checks cost is
 * `SELECT sum(cost_units) FROM generations WHERE account_id = 'operator'`). No money moves, since
 * no balance pays; the record is where such a charge is written, as every charge is, once. A
 * request cut short by a crash of its instance leaves no record (it had no pending row to recover).
 */
export function operatorLedger(store: Store, now: () => Date = () => new Date()): Ledger {
  const write = async (record: GenerationRecord, charged: boolean): Promise<void> => {
    await store.write((tx) => tx.insertInto('generations').values(generationToRow(record, charged))
      .onConflict((conflict) => conflict.column('id').doNothing()).execute());
  };
  return {
    async hold(request): Promise<Hold> {
      const at = now();
      return { ...request, id: newRecordId('hold'), heldAt: at, expiresAt: new Date(at.getTime() + HOLD_TTL_MS) };
    },
    settle: (_hold, record) => write(record, true),
    release: (hold, record) => write(record ?? unservedRecord(hold, now()), false),
    recordRefusal: (record) => write(record, false),
    // no hold is ever written, so none can expire
    releaseExpired: async () => 0,
  };
}
