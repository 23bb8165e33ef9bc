import type { ModelEntry } from '../../catalogue/types.js';
import { holdAmount } from '../../billing/pricing.js';
import { GatewayError } from '../errors.js';
import type { Plan, Rejection } from '../plan.js';
import type { PlannerInput } from './context.js';
import { ELIGIBILITY_RULES } from './eligibility.js';
import { heldCeiling, plannedCeiling } from './ceiling.js';
import { orderAttempts, type RankedAttempt } from './order.js';

export type PlanOutcome = { ok: true; plan: RankedPlan } | { ok: false; error: GatewayError };

export interface RankedPlan extends Plan {
  attempts: RankedAttempt[];
}

/**
 * The pure planner: catalogue snapshot + endpoint state + request → the ordered endpoints to try
 * (models in the caller's order, endpoints of each model in routing order), or a typed refusal.
 */
export function planRequest(input: PlannerInput): PlanOutcome {
  const models = input.request.models.map((id) => input.catalogue.models.get(id));
  const known = models.filter((model): model is ModelEntry => model !== undefined);
  if (known.length === 0) return { ok: false, error: unknownModel(input) };

  const attempts: RankedAttempt[] = [];
  const rejections: Rejection[] = [];
  for (const model of known) {
    attempts.push(...planModel(model, input, rejections));
  }
  if (attempts.length === 0) return { ok: false, error: noRoute(rejections) };
  return { ok: true, plan: { attempts } };
}

function planModel(model: ModelEntry, input: PlannerInput, rejections: Rejection[]): RankedAttempt[] {
  const eligible: RankedAttempt[] = [];
  for (const endpoint of model.endpoints) {
    const reason = firstRejection({ model, endpoint, input });
    if (reason) {
      rejections.push({ endpoint: endpoint.id, provider: endpoint.provider.slug, model: model.id, reason });
      continue;
    }
    const ceiling = plannedCeiling(endpoint, input.request.maxTokens, input.promptTokens);
    const estimatedCost = holdAmount(endpoint.pricing, {
      promptTokens: input.promptTokens,
      ceilingTokens: heldCeiling(endpoint, ceiling, input.promptTokens),
      now: input.now,
    });
    const attempt: RankedAttempt = { model, endpoint, promptTokens: input.promptTokens, estimatedCost };
    if (ceiling !== undefined) attempt.ceiling = ceiling;
    eligible.push(attempt);
  }
  return orderAttempts(eligible, input.state, input.request.maxTokens);
}

function firstRejection(candidate: Parameters<(typeof ELIGIBILITY_RULES)[number]>[0]): string | null {
  for (const rule of ELIGIBILITY_RULES) {
    const reason = rule(candidate);
    if (reason) return reason;
  }
  return null;
}

function unknownModel(input: PlannerInput): GatewayError {
  const asked = input.request.models[0] ?? '';
  return new GatewayError('not_found', `Model ${asked} does not exist`, { metadata: { model: asked } });
}

function noRoute(rejections: Rejection[]): GatewayError {
  return new GatewayError('no_route', 'No live endpoint can serve this request', { metadata: { rejections } });
}

/** The credit to hold for a plan: the most any of its attempts could cost. */
export function planHoldAmount(plan: RankedPlan): bigint {
  return plan.attempts.reduce((max, attempt) => (attempt.estimatedCost > max ? attempt.estimatedCost : max), 0n);
}
