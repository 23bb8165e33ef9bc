import type { CoreRequest } from '../core/request.js';
import type { CapabilityVerdictView } from '../core/capability-checks.js';
import { GatewayError } from '../core/errors.js';
import type { Hold, HoldRequest, Ledger } from '../billing/types.js';
import { generationRecord } from '../billing/generation-record.js';
import { askedFacts } from '../billing/settlement.js';
import { largestCeilingWithin } from '../billing/pricing.js';
import { requestFacts, type RequestFacts } from '../core/request-facts.js';
import { planHoldAmount, planRequest, type RankedPlan } from '../core/planner/planner.js';
import type { InferenceCall } from './call.js';
import type { InferenceServices } from './services.js';

/** A routed, funded request, ready for the executor. */
export interface PreparedInference {
  call: InferenceCall;
  request: CoreRequest;
  plan: RankedPlan;
  hold: Hold;
  /** Upstream calls the hold covers, each up to its attempt's held ceiling. */
  calls: number;
  /** The prompt estimate the generation record keeps. */
  promptTokens: number;
  startedAt: number;
}

export interface PrepareOptions {
  /**
   * Upstream calls one request makes on the endpoint that answers (typed decisions: one per
   * question), each held at the plan's dearest estimate; default 1.
   */
  calls?: number;
  /** What the planner judges, where the prompt is not `messages` (embeddings, rerank); default read from the request. */
  facts?: RequestFacts;
  /** The prompt estimate to record when it is not the planned one (several calls summed). */
  recordedPromptTokens?: number;
  /** The capability checks routing obeys; default the live ones (a probe plans with its own). */
  verdicts?: CapabilityVerdictView;
}

/**
 * Plans the request and reserves its credit. A request that cannot be routed or funded throws its
 * refusal here, before any hold exists, so it is never charged; the call's observer hears of it.
 */
export async function prepareInference(
  services: Pick<InferenceServices, 'catalogue' | 'state' | 'ledger'>,
  call: InferenceCall,
  request: CoreRequest,
  options: PrepareOptions = {},
): Promise<PreparedInference> {
  const startedAt = Date.now();
  const { key } = call;
  const facts = options.facts ?? requestFacts(request);
  const outcome = planRequest({
    catalogue: services.catalogue.current(),
    state: services.state,
    verdicts: options.verdicts ?? services.state.verdicts,
    request,
    facts,
    ...(key.routingDefaults && { workspaceDefaults: key.routingDefaults }),
    now: new Date(startedAt),
  });
  if (!outcome.ok) throw refused(call, outcome.error);
  const calls = options.calls ?? 1;
  const promptTokens = options.recordedPromptTokens ?? facts.promptTokens;
  const hold = await holdCredit(services.ledger, call, { plan: outcome.plan, request, calls, at: new Date(startedAt) }, {
    generationId: call.generationId,
    accountId: key.accountId,
    workspaceId: key.workspaceId,
    keyId: key.keyId,
    limits: key.scopeLimits,
    amount: planHoldAmount(outcome.plan) * BigInt(calls),
    pending: generationRecord({
      generationId: call.generationId,
      owner: key,
      asked: askedFacts(request, request.stream),
      startedAt,
      estimatedPromptTokens: promptTokens,
      pending: true,
      cost: 0n,
      costLines: [],
    }),
  });
  return { call, request, plan: outcome.plan, hold, calls, promptTokens, startedAt };
}

interface HeldPlan {
  plan: RankedPlan;
  request: CoreRequest;
  calls: number;
  at: Date;
}

/** Reserves the credit; a refusal (402) is told to the call's observer, with the largest `max_tokens` that would fit. */
async function holdCredit(ledger: Ledger, call: InferenceCall, held: HeldPlan, hold: HoldRequest): Promise<Hold> {
  try {
    return await ledger.hold(hold);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    throw refused(call, error.code === 'payment_required' ? withFittingCeiling(error, held) : error);
  }
}

/**
 * A 402 whose message also names the largest `max_tokens` every planned endpoint could hold within
 * the room left (the spendable balance, or the limit less what is used), where a smaller one than
 * the request's would fit. Requests whose output is not counted in tokens are left as they are.
 */
function withFittingCeiling(error: GatewayError, held: HeldPlan): GatewayError {
  const room = roomOf(error.metadata);
  if (room === null || held.request.speech || held.request.operation) return error;
  const budget = room / BigInt(held.calls);
  let fitting = Number.MAX_SAFE_INTEGER;
  for (const attempt of held.plan.attempts) {
    const largest = largestCeilingWithin(attempt.endpoint.pricing, { promptTokens: attempt.promptTokens, now: held.at }, budget);
    if (largest === null) return error;
    fitting = Math.min(fitting, largest);
  }
  const asked = Math.max(...held.plan.attempts.map((attempt) => attempt.heldCeiling));
  if (fitting < 1 || fitting >= asked) return error;
  return new GatewayError('payment_required', `${error.message}; a max_tokens of ${fitting} or less would fit`, { metadata: error.metadata, headers: error.headers });
}

/** What a 402 leaves to spend: the spendable balance, or a limit less what is used. */
function roomOf(metadata: Record<string, unknown>): bigint | null {
  const units = (name: string): bigint | null => (typeof metadata[name] === 'string' ? BigInt(metadata[name]) : null);
  const spendable = units('spendable');
  if (spendable !== null) return spendable;
  const limit = units('limit');
  const used = units('used');
  return limit !== null && used !== null && limit > used ? limit - used : null;
}

/** Tells the call's observer of its refusal; returns the refusal to throw. */
function refused(call: InferenceCall, error: GatewayError): GatewayError {
  call.observer.refused(error);
  return error;
}
