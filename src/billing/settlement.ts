import type { KeyContext } from '../accounts/types.js';
import { computeCost, type CostResult } from './pricing.js';
import type { EndpointPricing } from '../catalogue/types.js';
import { toUsdNumber } from './money.js';
import type { GenerationRecord, Hold, Ledger } from './types.js';
import type { CoreUsage } from '../core/events.js';
import type { CoreRequest } from '../core/request.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { GatewayError } from '../core/errors.js';

export interface GenerationOutcome {
  generationId: string;
  key: KeyContext;
  request: CoreRequest;
  /** The attempt that answered; undefined when none did. */
  attempt?: PlannedAttempt;
  estimatedPromptTokens: number;
  streamed: boolean;
  startedAt: number;
  firstContentAt?: number;
  usage?: CoreUsage;
  finishReason?: string | null;
  nativeFinishReason?: string | null;
  upstreamId?: string;
  error?: GatewayError;
  cancelled?: boolean;
  /**
   * The answer was refused to the caller before any of it was delivered (a non-streamed reply the
   * dialect cannot carry): recorded with its counts, charged nothing, the hold released.
   */
  refused?: boolean;
}

/** Prices a served outcome at the serving endpoint's prices. */
export type OutcomePricer = (pricing: EndpointPricing, outcome: GenerationOutcome, now: Date) => CostResult;

/** A call that delivered nothing bills nothing, though its record names the endpoint that served it. */
export const chargeNothing: OutcomePricer = () => ({ cost: 0n, lines: [] });

/** Conversations: tokens in and out, cache, reasoning, media, request. */
const priceAnswer: OutcomePricer = (pricing, outcome, now) =>
  computeCost(pricing, outcome.usage ?? {}, { estimatedPromptTokens: outcome.estimatedPromptTokens, now });

/**
 * Closes a held request: prices the reported usage at the serving endpoint's prices (a call that is
 * not a conversation brings its own pricer), then settles the hold and writes the generation record
 * in one ledger transaction. Returns the charge in USD.
 */
export async function settleGeneration(ledger: Ledger, hold: Hold, outcome: GenerationOutcome, price: OutcomePricer = priceAnswer): Promise<number> {
  const now = new Date();
  const charged = outcome.attempt !== undefined && outcome.refused !== true;
  const priced = outcome.attempt && charged ? price(outcome.attempt.endpoint.pricing, outcome, now) : { cost: 0n, lines: [] };
  const record = buildRecord(outcome, now, priced);
  if (charged) await ledger.settle(hold, record);
  else await ledger.release(hold, record);
  return toUsdNumber(priced.cost);
}

function buildRecord(
  outcome: GenerationOutcome,
  now: Date,
  priced: { cost: bigint; lines: GenerationRecord['costLines'] },
): GenerationRecord {
  const { attempt, usage, key, request } = outcome;
  const endpoint = attempt?.endpoint;
  return {
    id: outcome.generationId,
    accountId: key.accountId,
    workspaceId: key.workspaceId,
    keyId: key.keyId,
    model: attempt?.modelId ?? request.models[0] ?? '',
    providerSlug: endpoint?.provider.slug ?? null,
    providerName: endpoint?.provider.name ?? null,
    endpointId: endpoint?.id ?? null,
    upstreamId: outcome.upstreamId ?? null,
    streamed: outcome.streamed,
    status: outcome.cancelled ? 'cancelled' : outcome.error ? 'error' : 'success',
    finishReason: outcome.finishReason ?? null,
    nativeFinishReason: outcome.nativeFinishReason ?? null,
    errorCode: outcome.error?.status ?? null,
    errorMessage: outcome.error?.message ?? null,
    ...usage,
    estimatedPromptTokens: outcome.estimatedPromptTokens,
    cost: priced.cost,
    costLines: priced.lines,
    createdAt: new Date(outcome.startedAt),
    latencyMs: outcome.firstContentAt !== undefined ? outcome.firstContentAt - outcome.startedAt : null,
    generationMs: now.getTime() - outcome.startedAt,
    appTitle: request.attribution.title ?? null,
    appReferer: request.attribution.referer ?? null,
    metadata: request.metadata ?? null,
  };
}
