import type { FastifyRequest } from 'fastify';
import type { CoreRequest } from '../core/request.js';
import type { KeyContext } from '../accounts/types.js';
import type { Hold } from '../billing/types.js';
import type { Units } from '../billing/money.js';
import { requestFacts, type RequestFacts } from '../core/request-facts.js';
import { planHoldAmount, planRequest, type RankedPlan } from '../core/planner/planner.js';
import type { Services } from '../http/services.js';
import { authenticatedKey } from '../http/auth.js';

/** A routed, funded request, ready for the executor. */
export interface PreparedInference {
  generationId: string;
  key: KeyContext;
  request: CoreRequest;
  plan: RankedPlan;
  hold: Hold;
  promptTokens: number;
  startedAt: number;
}

export interface PrepareOptions {
  /**
   * The credit a plan needs, where the route's charge is not one chat call's prompt and ceiling
   * (several calls, characters); default the dearest attempt's estimate.
   */
  holdAmount?(plan: RankedPlan): Units;
  /** What the planner judges, where the prompt is not `messages` (embeddings, rerank); default read from the request. */
  facts?: RequestFacts;
}

/**
 * Plans the request and reserves its credit. A request that cannot be routed or funded throws its
 * refusal here, before any hold exists, so it is never charged.
 */
export async function prepareInference(
  services: Services,
  httpRequest: FastifyRequest,
  request: CoreRequest,
  options: PrepareOptions = {},
): Promise<PreparedInference> {
  const startedAt = Date.now();
  const key = authenticatedKey(httpRequest);
  const generationId = httpRequest.generationId ?? '';
  const facts = options.facts ?? requestFacts(request);
  const promptTokens = facts.promptTokens;
  const outcome = planRequest({
    catalogue: services.catalogue.current(),
    state: services.state,
    request,
    facts,
    ...(key.routingDefaults && { workspaceDefaults: key.routingDefaults }),
    now: new Date(startedAt),
  });
  if (!outcome.ok) throw outcome.error;
  const hold = await services.ledger.hold({
    generationId,
    accountId: key.accountId,
    workspaceId: key.workspaceId,
    keyId: key.keyId,
    amount: options.holdAmount ? options.holdAmount(outcome.plan) : planHoldAmount(outcome.plan),
  });
  httpRequest.creditHeld = true;
  return { generationId, key, request, plan: outcome.plan, hold, promptTokens, startedAt };
}
