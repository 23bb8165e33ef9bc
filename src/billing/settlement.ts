import type { EndpointPricing } from '../catalogue/types.js';
import type { CoreUsage } from '../core/events.js';
import type { CoreRequest } from '../core/request.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { GatewayError } from '../core/errors.js';
import { computeCost, type CostResult } from './pricing.js';
import { toUsdNumber } from './money.js';
import { generationRecord, type GenerationOwner } from './generation-record.js';
import type { Hold, Ledger } from './types.js';

/** What became of one held request: the facts its settlement prices and records. */
export interface GenerationOutcome {
  generationId: string;
  /** Whose generation it is (a key context will do). */
  key: GenerationOwner;
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
export const priceAnswer: OutcomePricer = (pricing, outcome, now) =>
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
  const { request } = outcome;
  const record = generationRecord({
    ...outcome,
    owner: outcome.key,
    asked: {
      model: request.models[0] ?? '',
      streamed: outcome.streamed,
      attribution: request.attribution,
      metadata: request.metadata ?? null,
    },
    finishedAt: now.getTime(),
    cost: priced.cost,
    costLines: priced.lines,
  });
  if (charged) await ledger.settle(hold, record);
  else await ledger.release(hold, record);
  return toUsdNumber(priced.cost);
}
