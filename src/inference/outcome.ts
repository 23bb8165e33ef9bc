import type { GenerationOutcome } from '../billing/settlement.js';
import type { GatewayError } from '../core/errors.js';
import type { AllAttemptsFailed } from './executor.js';
import { failuresToError } from '../core/failure-error.js';
import { cutByRestartError } from '../http/drain.js';
import { clientAbortedError } from '../http/inference/client-signal.js';
import type { AnswerMeter } from '../core/answer-meter.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { ReplyMeta } from '../dialects/shared/reply-meta.js';
import type { LiveEndpointState } from '../stats/endpoint-state.js';
import type { PreparedInference } from './prepare.js';

export function startOutcome(prepared: PreparedInference, streamed: boolean): GenerationOutcome {
  return {
    generationId: prepared.generationId,
    key: prepared.key,
    request: prepared.request,
    estimatedPromptTokens: prepared.promptTokens,
    streamed,
    startedAt: prepared.startedAt,
  };
}

export function replyMeta(prepared: PreparedInference, attempt: PlannedAttempt): ReplyMeta {
  return {
    id: prepared.generationId,
    created: Math.floor(prepared.startedAt / 1000),
    model: attempt.modelId,
    provider: attempt.endpoint.provider.name,
  };
}

/** Copies what the meter saw onto the outcome, with the usage to bill. */
export async function closeOutcome(outcome: GenerationOutcome, meter: AnswerMeter, cutShort: boolean): Promise<void> {
  const usage = await meter.billedUsage({ cutShort, promptEstimate: outcome.estimatedPromptTokens });
  if (usage) outcome.usage = usage;
  if (meter.firstContentAt !== undefined) outcome.firstContentAt = meter.firstContentAt;
  outcome.finishReason = outcome.error ? 'error' : meter.finish ?? null;
  outcome.nativeFinishReason = meter.nativeFinish;
  if (meter.upstreamId) outcome.upstreamId = meter.upstreamId;
}

/** A served answer feeds session affinity and, for streams, the endpoint's measured timings. */
export function recordServed(state: LiveEndpointState, outcome: GenerationOutcome): void {
  const endpoint = outcome.attempt?.endpoint;
  if (!endpoint || outcome.error) return;
  if (outcome.request.sessionId !== undefined) state.sessions.remember(outcome.request.sessionId, endpoint.id);
  if (!outcome.streamed || outcome.firstContentAt === undefined || outcome.cancelled) return;
  const sample: { ttftMs: number; generationMs: number; completionTokens?: number } = {
    ttftMs: outcome.firstContentAt - outcome.startedAt,
    generationMs: Date.now() - outcome.startedAt,
  };
  if (outcome.usage?.completionTokens !== undefined) sample.completionTokens = outcome.usage.completionTokens;
  state.timings.recordStream(endpoint.id, sample);
}

/**
 * The error a request no endpoint answered is recorded with: cut short by a restart, ended by its
 * caller leaving (also marked cancelled; `signal` is the request's client signal), or the
 * endpoints' failures.
 */
export function unansweredError(outcome: GenerationOutcome, failed: AllAttemptsFailed, signal: AbortSignal, restart: AbortSignal): GatewayError {
  if (restart.aborted) return cutByRestartError();
  if (signal.aborted) {
    outcome.cancelled = true;
    return clientAbortedError();
  }
  return failuresToError(failed.failures);
}
