import { newRecordId } from '../accounts/record-id.js';
import type { KeyContext } from '../accounts/types.js';
import { generationToRow } from '../billing/generations.js';
import { unservedRecord } from '../billing/ledger.js';
import type { GenerationRecord, Hold, Ledger } from '../billing/types.js';
import type { Store } from '../store/store.js';

/**
 * Who probes run as: the operator. No account, workspace or key has these ids (record ids are
 * `acct_…`, `ws_…`, `key_…`), so no customer's balance, spend limit or usage ever sees a probe,
 * and `GET /generation`, which answers only records of the caller's own account, never shows one.
 */
export const OPERATOR_ACCOUNT_ID = 'operator';

export const PROBE_KEY: KeyContext = {
  keyId: 'probe',
  accountId: OPERATOR_ACCOUNT_ID,
  workspaceId: 'operator',
  name: 'capability checks',
  label: 'probe',
  management: false,
  limit: null,
  limitReset: null,
  expiresAt: null,
};

/** How long a probe's hold would last; nothing reads it, since the hold reserves nothing. */
const HOLD_TTL_MS = 15 * 60_000;

/**
 * The ledger probes are run with. Probes are the operator's cost, never an account's: the operator
 * pays the provider directly, so a probe's hold reserves no credit and is never written, and its
 * settlement writes only the generation record, once, under the operator's ids, with the cost the
 * endpoint's prices give (`SELECT sum(cost_units) FROM generations WHERE account_id = 'operator'` is
 * what the checks cost). No ledger entry moves money, since no balance pays; the record is the one
 * place a probe's charge is written, so every charge is still recorded exactly once. A probe cut
 * short by a crash of its instance leaves no record (it had no pending row to recover).
 */
export function operatorLedger(store: Store, now: () => Date = () => new Date()): Ledger {
  const write = async (record: GenerationRecord, charged: boolean): Promise<void> => {
    await store.write((tx) => tx.insertInto('generations').values(generationToRow(record, charged))
      .onConflict((conflict) => conflict.column('id').doNothing()).execute());
  };
  return {
    async hold(request): Promise<Hold> {
      return { ...request, id: newRecordId('hold'), expiresAt: new Date(now().getTime() + HOLD_TTL_MS) };
    },
    settle: (_hold, record) => write(record, true),
    release: (hold, record) => write(record ?? unservedRecord(hold, now()), false),
    recordRefusal: (record) => write(record, false),
    // no hold is ever written, so none can expire
    releaseExpired: async () => 0,
  };
}
