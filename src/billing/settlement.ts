import type { EndpointPricing } from '../catalogue/types.js';
import type { CoreUsage } from '../core/events.js';
import type { CoreRequest } from '../core/request.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { GatewayError } from '../core/errors.js';
import { capCharge, usageWithinCeiling, type Uncollected } from './charge-cap.js';
import { computeCharacterCost } from './character-pricing.js';
import { computeCost, type CostResult } from './pricing.js';
import { toUsdNumber, type Units } from './money.js';
import { generationRecord, type AskedFacts, type GenerationOwner } from './generation-record.js';
import type { CostLine, Hold, Ledger } from './types.js';

/** What became of one held request: the facts its settlement prices and records. */
export interface GenerationOutcome {
  generationId: string;
  /** Whose generation it is (a key context will do). */
  key: GenerationOwner;
  request: CoreRequest;
  /** The attempt that answered; undefined when none did. */
  attempt?: PlannedAttempt;
  /**
   * Upstream calls the hold covers, each up to the attempt's held ceiling (typed decisions: one per
   * question); default 1.
   */
  calls?: number;
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

/** Speech: per input character, counted before sending. */
export const priceCharacters: OutcomePricer = (pricing, outcome, now) =>
  computeCharacterCost(pricing, outcome.request.speech?.characters ?? 0, now);

/** A charge cut below what the endpoint's reported usage priced at: what an operator watches per endpoint. */
export interface Overrun extends Uncollected {
  generationId: string;
  endpointId: string;
}

export interface SettleOptions {
  /** Default `priceAnswer`; a call that is not a conversation brings its own. */
  price?: OutcomePricer;
  /** Told once the settlement is written, when the charge was cut. */
  onOverrun?(overrun: Overrun): void;
}

interface Settled {
  charge: Units;
  lines: CostLine[];
  uncollected?: Uncollected;
}

/**
 * Closes a held request: prices the reported usage at the serving endpoint's prices, caps the charge
 * at the hold (see charge-cap.ts), then settles the hold and writes the generation record in one
 * ledger transaction. Returns the charge in USD.
 */
export async function settleGeneration(ledger: Ledger, hold: Hold, outcome: GenerationOutcome, options: SettleOptions = {}): Promise<number> {
  const now = new Date();
  const { attempt, request } = outcome;
  const charged = attempt !== undefined && outcome.refused !== true;
  const settled: Settled = attempt && charged ? chargeWithinHold(attempt, outcome, hold, options.price ?? priceAnswer, now) : { charge: 0n, lines: [] };
  // The facts named one by one: a copy of the whole outcome (spread) cost ten times the rest of this.
  const record = generationRecord({
    generationId: outcome.generationId,
    owner: outcome.key,
    asked: askedFacts(request, outcome.streamed),
    attempt,
    startedAt: outcome.startedAt,
    firstContentAt: outcome.firstContentAt,
    finishedAt: now.getTime(),
    usage: outcome.usage,
    finishReason: outcome.finishReason,
    nativeFinishReason: outcome.nativeFinishReason,
    upstreamId: outcome.upstreamId,
    error: outcome.error,
    cancelled: outcome.cancelled,
    estimatedPromptTokens: outcome.estimatedPromptTokens,
    cost: settled.charge,
    costLines: settled.lines,
    uncollected: settled.uncollected,
  });
  if (charged) await ledger.settle(hold, record);
  else await ledger.release(hold, record);
  if (attempt && settled.uncollected) options.onOverrun?.({ generationId: outcome.generationId, endpointId: attempt.endpoint.id, ...settled.uncollected });
  return toUsdNumber(settled.charge);
}

/**
 * The charge of a served outcome: its usage priced with the output cut at the held ceiling, at most
 * the hold. The cost lines price the usage as reported.
 */
function chargeWithinHold(attempt: PlannedAttempt, outcome: GenerationOutcome, hold: Hold, price: OutcomePricer, now: Date): Settled {
  const { pricing } = attempt.endpoint;
  const reported = price(pricing, outcome, now);
  const usage = outcome.usage && usageWithinCeiling(outcome.usage, attempt.heldCeiling * (outcome.calls ?? 1));
  const withinCeiling = usage === outcome.usage ? reported : price(pricing, { ...outcome, usage }, now);
  const capped = capCharge({ reported: reported.cost, withinCeiling: withinCeiling.cost }, hold.amount);
  return { charge: capped.charge, lines: reported.lines, ...(capped.uncollected && { uncollected: capped.uncollected }) };
}

/** What a record keeps of the request asked: its first model, attribution and metadata. */
export function askedFacts(request: CoreRequest, streamed: boolean): AskedFacts {
  return { model: request.models[0] ?? '', streamed, attribution: request.attribution, metadata: request.metadata ?? null };
}
