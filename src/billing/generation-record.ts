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
  estimatedPromptTokens: number;
  cost: bigint;
  costLines: GenerationRecord['costLines'];
  /** What the reported usage priced above `cost`; absent when all of it was charged. */
  uncollected?: Uncollected;
}

/** The one place a generation record is built. */
export function generationRecord(facts: RecordFacts): GenerationRecord {
  const { attempt, owner } = facts;
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
    status: facts.cancelled ? 'cancelled' : facts.error ? 'error' : 'success',
    finishReason: facts.finishReason ?? null,
    nativeFinishReason: facts.nativeFinishReason ?? null,
    errorCode: facts.error?.status ?? null,
    errorMessage: facts.error?.message ?? null,
    ...facts.usage,
    estimatedPromptTokens: facts.estimatedPromptTokens,
    cost: facts.cost,
    costLines: facts.costLines,
    ...(facts.uncollected && { uncollected: facts.uncollected }),
    createdAt: new Date(facts.startedAt),
    latencyMs: facts.firstContentAt !== undefined ? facts.firstContentAt - facts.startedAt : null,
    generationMs: facts.finishedAt !== undefined ? facts.finishedAt - facts.startedAt : null,
    appTitle: facts.asked.attribution.title ?? null,
    appReferer: facts.asked.attribution.referer ?? null,
    metadata: facts.asked.metadata,
  };
}
