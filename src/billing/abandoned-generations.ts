import type { Selectable } from 'kysely';
import type { CatalogueSource } from '../catalogue/source.js';
import { ERROR_CODES } from '../core/errors.js';
import type { GenerationsTable } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { closedPendingRecord } from './generation-record.js';
import { generationFromRow } from './generations.js';
import { minUnits } from './money.js';
import { computeCost } from './pricing.js';
import type { GenerationRecord, Hold, Ledger } from './types.js';

export const STOPPED_BILLED_MESSAGE = 'The instance serving this generation stopped before it finished; billed for the output delivered up to its last checkpoint';
export const STOPPED_UNBILLED_MESSAGE = 'The instance serving this generation stopped before it finished; nothing was billed';

export interface AbandonedGenerations {
  /**
   * Settles every generation a gone instance left pending: billed for what its last checkpoint
   * proves was delivered, at the serving endpoint's prices and never above its hold, the rest of
   * the hold released; a generation with no checkpoint is released, costing nothing. Each one is
   * its own ledger settlement, so a generation its own stream settled meanwhile is left as it is.
   * Returns how many were settled; throws, once the others are settled, when one could not be.
   */
  settle(instanceId: string): Promise<number>;
}

type PendingRow = Selectable<GenerationsTable>;

export function createAbandonedGenerations(deps: {
  store: Store;
  ledger: Pick<Ledger, 'settle' | 'release'>;
  catalogue: CatalogueSource;
  now?: () => Date;
}): AbandonedGenerations {
  const now = deps.now ?? (() => new Date());
  return {
    async settle(instanceId) {
      const rows = await deps.store.db
        .selectFrom('generations')
        .selectAll()
        .where('instance_id', '=', instanceId)
        .where('status', '=', 'pending')
        .execute();
      const failures: unknown[] = [];
      for (const row of rows) await settleOne(deps, row, now()).catch((error: unknown) => failures.push(error));
      if (failures.length > 0) throw new AggregateError(failures, `${failures.length} of ${rows.length} abandoned generations not settled`);
      return rows.length;
    },
  };
}

async function settleOne(deps: { ledger: Pick<Ledger, 'settle' | 'release'>; catalogue: CatalogueSource }, row: PendingRow, at: Date): Promise<void> {
  const pending = generationFromRow(row);
  const hold = heldFor(row, pending);
  const endpoint = pending.endpointId === null ? undefined : deps.catalogue.current().endpoints.get(pending.endpointId);
  if (!endpoint || pending.completionTokens === undefined) {
    const error = { status: ERROR_CODES.server.status, message: STOPPED_UNBILLED_MESSAGE };
    await deps.ledger.release(hold, closedPendingRecord(pending, { error, finishedAt: at.getTime(), cost: 0n, costLines: [] }));
    return;
  }
  const usage = { promptTokens: pending.promptTokens ?? pending.estimatedPromptTokens, completionTokens: pending.completionTokens };
  const priced = computeCost(endpoint.pricing, usage, { estimatedPromptTokens: pending.estimatedPromptTokens, now: at });
  const record = closedPendingRecord(pending, {
    error: { status: ERROR_CODES.server.status, message: STOPPED_BILLED_MESSAGE },
    finishedAt: at.getTime(),
    endpoint,
    usage,
    cost: minUnits(priced.cost, hold.amount),
    costLines: priced.lines,
  });
  await deps.ledger.settle(hold, record);
}

/** The hold as its pending generation recorded it; one already released reads as expired. */
function heldFor(row: PendingRow, pending: GenerationRecord): Hold {
  return {
    id: row.hold_id ?? '',
    generationId: row.id,
    accountId: row.account_id,
    workspaceId: row.workspace_id,
    keyId: row.key_id,
    amount: BigInt(row.held_units ?? '0'),
    heldAt: new Date(row.held_at ?? pending.createdAt.getTime()),
    expiresAt: new Date(row.hold_expires_at ?? 0),
    pending,
  };
}
