import type { Insertable, Selectable } from 'kysely';
import type { GenerationsTable } from '../store/schema.js';
import { storableJsonText, storableRow } from '../store/storable-text.js';
import type { Store } from '../store/store.js';
import { isUncollectedReason, type Uncollected } from './charge-cap.js';
import type { PendingGenerationRow } from './ledger-tables.js';
import type { Units } from './money.js';
import { GENERATION_STATUSES, type CostLine, type GenerationReader, type GenerationRecord, type GenerationStatus, type Hold } from './types.js';

type GenerationRow = Selectable<GenerationsTable>;

/** Reads generation records back, only for the account they belong to. */
export function createGenerationReader(store: Store): GenerationReader {
  return {
    async get(id, accountId) {
      const row = await store.db
        .selectFrom('generations')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row ? generationFromRow(row) : null;
    },
  };
}

/**
 * The stored form of a record. When not `charged` (a released hold), its cost and the amounts of its
 * priced lines are stored as 0 while the quantities stay, so the record says what was waived; nothing
 * is then uncollected, since nothing was collected. Its texts, provider text and client headers among
 * them, are made storable here (U+0000 becomes U+FFFD, see storable-text.ts), for both engines and
 * every way a record is written. A record written for a hold (`heldBy`) names the hold and its
 * instance, as its pending row did; every row has all the columns, so every row has one shape.
 */
export function generationToRow(record: GenerationRecord, charged: boolean, heldBy?: Hold, instanceId: string | null = null): Insertable<GenerationsTable> {
  const cost: Units = charged ? record.cost : 0n;
  const uncollected = charged ? record.uncollected : undefined;
  return storableRow({
    id: record.id,
    account_id: record.accountId,
    workspace_id: record.workspaceId,
    key_id: record.keyId,
    model: record.model,
    provider_slug: record.providerSlug,
    provider_name: record.providerName,
    endpoint_id: record.endpointId,
    upstream_id: record.upstreamId,
    streamed: record.streamed ? 1 : 0,
    status: record.status,
    finish_reason: record.finishReason,
    native_finish_reason: record.nativeFinishReason,
    error_code: record.errorCode,
    error_message: record.errorMessage,
    prompt_tokens: record.promptTokens ?? null,
    completion_tokens: record.completionTokens ?? null,
    cached_tokens: record.cachedTokens ?? null,
    cache_write_tokens: record.cacheWriteTokens ?? null,
    reasoning_tokens: record.reasoningTokens ?? null,
    estimated_prompt_tokens: record.estimatedPromptTokens,
    cost_units: cost.toString(),
    cost_lines: storableJsonText(record.costLines.map((line) => storedLine(line, charged))),
    uncollected_units: uncollected ? uncollected.amount.toString() : null,
    uncollected_reason: uncollected ? uncollected.reasons.join(',') : null,
    created_at: record.createdAt.getTime(),
    latency_ms: record.latencyMs,
    generation_ms: record.generationMs,
    app_title: record.appTitle,
    app_referer: record.appReferer,
    metadata: record.metadata === null ? null : storableJsonText(record.metadata),
    instance_id: heldBy ? instanceId : null,
    hold_id: heldBy ? heldBy.id : null,
    held_units: heldBy ? heldBy.amount.toString() : null,
    held_at: null,
    hold_expires_at: null,
  });
}

/**
 * The row written with a hold: the pending record, stamped with its instance and its hold. Where
 * the hold reserves its credit in the database (`reservedThere`), the row carries it open: taken at
 * its `heldAt`, expiring at its `expiresAt`.
 */
export function pendingGenerationRow(hold: Hold, instanceId: string | null, reservedThere = false): PendingGenerationRow {
  const row = generationToRow(hold.pending, false, hold, instanceId) as PendingGenerationRow;
  if (reservedThere) {
    row.held_at = hold.heldAt.getTime();
    row.hold_expires_at = hold.expiresAt.getTime();
  }
  return row;
}

interface StoredLine {
  key: string;
  quantity: string;
  amount: string | null;
}

function storedLine(line: CostLine, charged: boolean): StoredLine {
  const amount = line.amount === null ? null : charged ? line.amount : 0n;
  return { key: line.key, quantity: line.quantity, amount: amount === null ? null : amount.toString() };
}

export function generationFromRow(row: GenerationRow): GenerationRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    workspaceId: row.workspace_id,
    keyId: row.key_id,
    model: row.model,
    providerSlug: row.provider_slug,
    providerName: row.provider_name,
    endpointId: row.endpoint_id,
    upstreamId: row.upstream_id,
    streamed: row.streamed !== 0,
    status: parseStatus(row.status),
    finishReason: row.finish_reason,
    nativeFinishReason: row.native_finish_reason,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    ...optionalCount('promptTokens', row.prompt_tokens),
    ...optionalCount('completionTokens', row.completion_tokens),
    ...optionalCount('cachedTokens', row.cached_tokens),
    ...optionalCount('cacheWriteTokens', row.cache_write_tokens),
    ...optionalCount('reasoningTokens', row.reasoning_tokens),
    estimatedPromptTokens: row.estimated_prompt_tokens,
    cost: BigInt(row.cost_units),
    costLines: parseLines(row.cost_lines),
    ...storedUncollected(row.uncollected_units, row.uncollected_reason),
    createdAt: new Date(row.created_at),
    latencyMs: row.latency_ms,
    generationMs: row.generation_ms,
    appTitle: row.app_title,
    appReferer: row.app_referer,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
  };
}

/** An unreported count stays absent (undefined), never 0. */
function optionalCount<K extends string>(name: K, value: number | null): Partial<Record<K, number>> {
  return value === null ? {} : ({ [name]: value } as Record<K, number>);
}

function storedUncollected(units: string | null, reason: string | null): { uncollected?: Uncollected } {
  if (units === null) return {};
  const reasons = (reason ?? '').split(',');
  if (!reasons.every(isUncollectedReason)) throw new Error(`stored generation has unknown uncollected reason ${JSON.stringify(reason)}`);
  return { uncollected: { amount: BigInt(units), reasons } };
}

function parseStatus(status: string): GenerationStatus {
  if ((GENERATION_STATUSES as readonly string[]).includes(status)) return status as GenerationStatus;
  throw new Error(`stored generation has unknown status ${JSON.stringify(status)}`);
}

function parseLines(text: string): CostLine[] {
  const lines = JSON.parse(text) as StoredLine[];
  return lines.map((line) => ({
    key: line.key,
    quantity: line.quantity,
    amount: line.amount === null ? null : BigInt(line.amount),
  }));
}
