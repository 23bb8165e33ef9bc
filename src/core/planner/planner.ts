import { holdAmount, type HoldCounts } from '../../billing/pricing.js';
import type { EndpointEntry } from '../../catalogue/types.js';
import type { ImageRender, TranscriptionRoute } from '../operation.js';
import { GatewayError } from '../errors.js';
import type { ProviderPreferences } from '../request.js';
import type { Plan, Rejection } from '../plan.js';
import type { Candidate, PlannerInput } from './context.js';
import { firstRejection } from './eligibility.js';
import { endpointOutputLimit, heldCeiling, plannedCeiling } from './ceiling.js';
import { resolveModels, type ResolvedModel } from './model-resolution.js';
import { applyProviderOrder, requestedSort, sortAttempts, type RankedAttempt } from './order.js';
import { providerOptionsFor } from './provider-options.js';
import { checkOperation } from './operation-rules.js';
import { largestPixels } from './image-rules.js';
import { compressMiddle } from './window.js';

export type PlanOutcome = { ok: true; plan: RankedPlan } | { ok: false; error: GatewayError };

export interface RankedPlan extends Plan {
  attempts: RankedAttempt[];
}

/**
 * The pure planner: catalogue snapshot + endpoint state + request → the ordered endpoints to try,
 * or a typed refusal (400 for a bad `provider.options` entry, 404 unknown model, 503 no route
 * with every endpoint's reason). Models are tried in the caller's order unless a sort partition
 * of `none` ranks all their endpoints together.
 */
export function planRequest(input: PlannerInput): PlanOutcome {
  try {
    return { ok: true, plan: plan(input) };
  } catch (error) {
    if (error instanceof GatewayError) return { ok: false, error };
    throw error;
  }
}

function plan(input: PlannerInput): RankedPlan {
  const preferences: ProviderPreferences = { ...input.workspaceDefaults, ...input.request.provider };
  const rejections: Rejection[] = [];
  const resolvedModels = resolveModels(input.catalogue, input.request.models);
  checkOperation(input.request.operation, resolvedModels);
  const perModel = resolvedModels.map((resolved) => {
    const eligible = eligibleAttempts(resolved, input, preferences, rejections);
    const context = { state: input.state, preferences, requestedCeiling: input.request.maxTokens, sessionId: input.request.sessionId };
    return { eligible, context, sort: requestedSort(preferences, resolved.variant) };
  });
  let attempts: RankedAttempt[];
  const first = perModel[0];
  if (preferences.partition === 'none' && first?.sort) {
    attempts = sortAttempts(perModel.flatMap((entry) => entry.eligible), first.context, first.sort);
    attempts = applyProviderOrder(attempts, preferences);
  } else {
    // a loop: flatMap costs about half a microsecond a call more (Node 20)
    attempts = [];
    for (const entry of perModel) attempts.push(...applyProviderOrder(sortAttempts(entry.eligible, entry.context, entry.sort), preferences));
  }
  if (attempts.length === 0) throw noRoute(rejections);
  return { attempts };
}

function eligibleAttempts(resolved: ResolvedModel, input: PlannerInput, preferences: ProviderPreferences, rejections: Rejection[]): RankedAttempt[] {
  const eligible: RankedAttempt[] = [];
  for (const endpoint of resolved.model.endpoints) {
    const candidate: Candidate = { model: resolved.model, variant: resolved.variant, endpoint, input, preferences };
    const reason = firstRejection(candidate);
    if (reason) {
      rejections.push({ endpoint: endpoint.id, provider: endpoint.provider.slug, model: resolved.model.id, reason });
      continue;
    }
    eligible.push(rankedAttempt(candidate, resolved.askedId));
  }
  return eligible;
}

function rankedAttempt(candidate: Candidate, modelId: string): RankedAttempt {
  const { endpoint, input, model } = candidate;
  const requested = input.request.maxTokens;
  const compressed = input.request.middleOut
    ? compressMiddle(input, endpoint.contextLength - (requested ?? 1))
    : undefined;
  const promptTokens = compressed?.promptTokens ?? input.facts.promptTokens;
  const ceiling = plannedCeiling(endpoint, requested, promptTokens);
  const speech = input.request.speech;
  const held = heldCeiling(endpoint, ceiling, promptTokens);
  const operation = input.request.operation;
  const heard = operation?.kind === 'transcription' ? transcriptionCeiling(endpoint, operation) : undefined;
  // reference pictures are input the estimate cannot count: the hold covers the endpoint's window
  const referenced = operation?.kind === 'image' && operation.references.length > 0;
  const estimatedCost = holdAmount(endpoint.pricing, {
    promptTokens: heard?.promptTokens ?? (referenced ? Math.max(promptTokens, endpoint.contextLength) : promptTokens),
    ceilingTokens: heard?.outputTokens ?? (speech || operation ? 0 : held),
    now: input.now,
    ...(speech && { characters: speech.characters }),
    ...(operation?.kind === 'image' && { images: renderCeiling(endpoint, operation) }),
    ...(heard && { audioSeconds: heard.seconds }),
  });
  const attempt: RankedAttempt = { model, modelId, endpoint, promptTokens, heldCeiling: held, estimatedCost };
  if (ceiling !== undefined) attempt.ceiling = ceiling;
  if (compressed) attempt.messages = compressed.messages;
  const options = providerOptionsFor(endpoint, candidate.preferences);
  if (options) attempt.options = options;
  return attempt;
}

/**
 * A repeat is planned against the same declarations and refused the same way, so the refusal tells
 * clients not to repeat it: the official SDKs and Claude Code read `x-should-retry` before their
 * own status rules, which would otherwise repeat a 503 for minutes.
 */
const NO_ROUTE_HEADERS = { 'x-should-retry': 'false' } as const;

function noRoute(rejections: Rejection[]): GatewayError {
  const reasons = [...new Set(rejections.map((rejection) => rejection.reason))].slice(0, 4);
  const detail = reasons.length > 0 ? `: ${reasons.join('; ')}` : '';
  return new GatewayError('no_route', `No live endpoint can serve this request${detail}`, { metadata: { rejections }, headers: { ...NO_ROUTE_HEADERS } });
}

/**
 * The most an image-generation call could render on `endpoint`: its pictures at the size asked (or
 * the envelope's largest), each up to the endpoint's output token limit. Where neither is declared
 * the settlement's charge cap keeps the charge within the hold.
 */
function renderCeiling(endpoint: EndpointEntry, render: ImageRender): NonNullable<HoldCounts['images']> {
  const pixels = largestPixels(endpoint, render) * render.n;
  return { count: render.n, megapixels: (pixels / 1_000_000).toFixed(6), outputTokens: render.n * (endpoint.maxCompletionTokens ?? 0), references: render.references.length };
}

/**
 * The most a transcription could cost on `endpoint`: its seconds, and, where it bills tokens, all
 * the audio and prompt its window takes and all the transcript it could write (how many tokens a
 * second of audio is depends on the model, so the hold does not guess).
 */
function transcriptionCeiling(endpoint: EndpointEntry, route: TranscriptionRoute): { seconds: string; promptTokens: number; outputTokens: number } {
  // checkOperation refuses to plan a transcription whose seconds are unread.
  return { seconds: route.seconds ?? '0', promptTokens: endpoint.contextLength, outputTokens: endpointOutputLimit(endpoint) };
}

/** The credit to hold for a plan: the most any of its attempts could cost. */
export function planHoldAmount(plan: RankedPlan): bigint {
  return plan.attempts.reduce((max, attempt) => (attempt.estimatedCost > max ? attempt.estimatedCost : max), 0n);
}
