import type { CoreRequest } from '../core/request.js';
import type { CapabilityVerdictView } from '../core/capability-checks.js';
import { GatewayError } from '../core/errors.js';
import type { Hold, HoldRequest, Ledger } from '../billing/types.js';
import { generationRecord } from '../billing/generation-record.js';
import { askedFacts } from '../billing/settlement.js';
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
  const hold = await holdCredit(services.ledger, call, {
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

/** Reserves the credit; a refusal (402) is told to the call's observer. */
async function holdCredit(ledger: Ledger, call: InferenceCall, hold: HoldRequest): Promise<Hold> {
  try {
    return await ledger.hold(hold);
  } catch (error) {
    throw error instanceof GatewayError ? refused(call, error) : error;
  }
}

/** Tells the call's observer of its refusal; returns the refusal to throw. */
function refused(call: InferenceCall, error: GatewayError): GatewayError {
  call.observer.refused(error);
  return error;
}
