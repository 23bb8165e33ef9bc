import type { EndpointEntry } from '../catalogue/types.js';
import type { CoreUsage } from '../core/events.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { Uncollected } from './charge-cap.js';
import type { GenerationRecord } from './types.js';

/** Who a generation belongs to. */
export interface GenerationOwner {
  accountId: string;
  workspaceId: string;
  keyId: string;
}

/** What the caller asked, as far as the record keeps it. */
export interface AskedFacts {
  /** The model asked for first, as sent; '' when none was named. */
  model: string;
  streamed: boolean;
  attribution: { title?: string; referer?: string };
  metadata: Record<string, unknown> | null;
}

/** Everything a generation record is made from: a settled answer or a refusal before any hold. */
export interface RecordFacts {
  generationId: string;
  owner: GenerationOwner;
  asked: AskedFacts;
  /** The attempt that answered; undefined when none did. */
  attempt?: PlannedAttempt;
  startedAt: number;
  firstContentAt?: number;
  /** Undefined for a refusal, which never reached an endpoint. */
  finishedAt?: number;
  usage?: CoreUsage;
  finishReason?: string | null;
  nativeFinishReason?: string | null;
  upstreamId?: string;
  error?: { status: number; message: string };
  cancelled?: boolean;
  /** Admitted and not settled yet: the record written with the hold. */
  pending?: boolean;
  estimatedPromptTokens: number;
  cost: bigint;
  costLines: GenerationRecord['costLines'];
  /** What the reported usage priced above `cost`; absent when all of it was charged. */
  uncollected?: Uncollected;
}

/**
 * The one place a generation record is built. Every member is named, an unreported count or an
 * absent shortfall left undefined: a spread of the usage in the middle cost as much as the rest of
 * a settlement's own code, each member after it added one by one.
 */
export function generationRecord(facts: RecordFacts): GenerationRecord {
  const { attempt, owner, usage } = facts;
  const endpoint = attempt?.endpoint;
  return {
    id: facts.generationId,
    accountId: owner.accountId,
    workspaceId: owner.workspaceId,
    keyId: owner.keyId,
    model: attempt?.modelId ?? facts.asked.model,
    providerSlug: endpoint?.provider.slug ?? null,
    providerName: endpoint?.provider.name ?? null,
    endpointId: endpoint?.id ?? null,
    upstreamId: facts.upstreamId ?? null,
    streamed: facts.asked.streamed,
    status: facts.pending ? 'pending' : facts.cancelled ? 'cancelled' : facts.error ? 'error' : 'success',
    finishReason: facts.finishReason ?? null,
    nativeFinishReason: facts.nativeFinishReason ?? null,
    errorCode: facts.error?.status ?? null,
    errorMessage: facts.error?.message ?? null,
    promptTokens: usage?.promptTokens,
    completionTokens: usage?.completionTokens,
    cachedTokens: usage?.cachedTokens,
    cacheWriteTokens: usage?.cacheWriteTokens,
    reasoningTokens: usage?.reasoningTokens,
    estimatedPromptTokens: facts.estimatedPromptTokens,
    cost: facts.cost,
    costLines: facts.costLines,
    uncollected: facts.uncollected,
    createdAt: new Date(facts.startedAt),
    latencyMs: facts.firstContentAt !== undefined ? facts.firstContentAt - facts.startedAt : null,
    generationMs: facts.finishedAt !== undefined ? facts.finishedAt - facts.startedAt : null,
    appTitle: facts.asked.attribution.title ?? null,
    appReferer: facts.asked.attribution.referer ?? null,
    metadata: facts.asked.metadata,
  };
}

/** How a pending generation ends when its own stream did not settle it. */
export interface PendingClose {
  error: { status: number; message: string };
  finishedAt: number;
  /** The endpoint that was serving it, when a checkpoint named one still in the catalogue. */
  endpoint?: EndpointEntry;
  /** The usage billed; without it the counts of the last checkpoint stay on the record. */
  usage?: CoreUsage;
  cost: bigint;
  costLines: GenerationRecord['costLines'];
}

/**
 * A pending generation closed as an error by someone other than its stream: the recovery of an
 * instance that died (billed from its last checkpoint), or a release after a fault of the service.
 */
export function closedPendingRecord(pending: GenerationRecord, close: PendingClose): GenerationRecord {
  const { endpoint } = close;
  return {
    ...pending,
    ...close.usage,
    model: endpoint?.modelId ?? pending.model,
    providerSlug: endpoint?.provider.slug ?? pending.providerSlug,
    providerName: endpoint?.provider.name ?? pending.providerName,
    endpointId: endpoint?.id ?? pending.endpointId,
    status: 'error',
    finishReason: 'error',
    errorCode: close.error.status,
    errorMessage: close.error.message,
    cost: close.cost,
    costLines: close.costLines,
    // another instance's clock may run behind the one that admitted the generation
    generationMs: Math.max(0, close.finishedAt - pending.createdAt.getTime()),
  };
}
