import type { Selectable } from 'kysely';
import { isCapability } from '../core/capability-checks.js';
import type { CapabilityChecksTable } from '../store/schema.js';
import { storableText } from '../store/storable-text.js';
import type { Store } from '../store/store.js';
import type { CheckVerdict } from '../stats/check-verdicts.js';

/** Where check verdicts are kept, so they survive restarts and every instance of a fleet reads them. */
export interface VerdictStore {
  /** Keeps `verdict` as the latest of its endpoint and capability, unless a newer one is stored. */
  save(verdict: CheckVerdict): Promise<void>;
  /** The latest verdicts checked at or after `since` (ms since epoch); 0 reads them all. */
  readSince(since: number): Promise<CheckVerdict[]>;
}

export function createVerdictStore(store: Store): VerdictStore {
  return {
    async save(verdict) {
      const row = {
        endpoint_id: verdict.endpointId,
        capability: verdict.capability,
        passed: verdict.passed ? 1 : 0,
        serving_revision: verdict.revision,
        probe_version: verdict.probeVersion,
        checked_at: verdict.at,
        detail: storableText(verdict.detail),
      } as const;
      await store.write((tx) => tx.insertInto('capability_checks').values(row)
        .onConflict((conflict) => conflict.columns(['endpoint_id', 'capability'])
          .doUpdateSet((eb) => ({
            passed: eb.ref('excluded.passed'),
            serving_revision: eb.ref('excluded.serving_revision'),
            probe_version: eb.ref('excluded.probe_version'),
            checked_at: eb.ref('excluded.checked_at'),
            detail: eb.ref('excluded.detail'),
          }))
          .where('capability_checks.checked_at', '<=', verdict.at))
        .execute());
    },
    async readSince(since) {
      const rows = await store.db.selectFrom('capability_checks').selectAll().where('checked_at', '>=', since).execute();
      return rows.flatMap((row) => {
        const verdict = verdictFromRow(row);
        return verdict ? [verdict] : [];
      });
    },
  };
}

/** A stored row as a verdict; a capability this version does not know (written by a newer one) is skipped. */
function verdictFromRow(row: Selectable<CapabilityChecksTable>): CheckVerdict | undefined {
  if (!isCapability(row.capability)) return undefined;
  return {
    endpointId: row.endpoint_id,
    capability: row.capability,
    passed: row.passed === 1,
    revision: row.serving_revision,
    probeVersion: Number(row.probe_version),
    at: Number(row.checked_at),
    detail: row.detail,
  };
}
