import type { GenerationOutcome } from '../billing/settlement.js';
import type { GatewayError } from '../core/errors.js';
import { failuresToError } from '../core/failure-error.js';
import type { AnswerMeter } from '../core/answer-meter.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { ReplyMeta } from '../dialects/shared/reply-meta.js';
import type { AllAttemptsFailed, Answer } from './executor.js';
import { clientAbortedError } from './call.js';
import type { SampleRecorder } from '../stats/endpoint-sample.js';
import { recordFailedAttempts } from './endpoint-samples.js';
import { reportAttempts } from './observer.js';
import type { PreparedInference } from './prepare.js';
import { cutByRestartError } from './restart.js';
import type { PipelineEndpointState } from './services.js';

export function startOutcome(prepared: PreparedInference, streamed: boolean): GenerationOutcome {
  return {
    generationId: prepared.call.generationId,
    key: prepared.call.key,
    request: prepared.request,
    calls: prepared.calls,
    estimatedPromptTokens: prepared.promptTokens,
    streamed,
    startedAt: prepared.startedAt,
  };
}

export function replyMeta(prepared: PreparedInference, attempt: PlannedAttempt): ReplyMeta {
  return {
    id: prepared.call.generationId,
    created: Math.floor(prepared.startedAt / 1000),
    model: attempt.modelId,
    provider: attempt.endpoint.provider.name,
  };
}

/**
 * The answer committed: the outcome names the attempt serving it, the call's observer hears of every
 * attempt, and the failed ones before it are recorded as their endpoints' samples.
 */
export function answeredBy(samples: SampleRecorder, outcome: GenerationOutcome, prepared: PreparedInference, answer: Answer<unknown>): void {
  outcome.attempt = answer.attempt;
  reportAttempts(prepared.call.observer, answer.failures, answer.attempt);
  recordFailedAttempts(samples, answer.failures, prepared.call);
}

/** Time from the call's start to its first content, when any came. */
export function firstContentMs(outcome: GenerationOutcome): number | undefined {
  return outcome.firstContentAt === undefined ? undefined : outcome.firstContentAt - outcome.startedAt;
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

/** A served answer feeds session affinity. */
export function recordServed(state: PipelineEndpointState, outcome: GenerationOutcome): void {
  const endpoint = outcome.attempt?.endpoint;
  if (!endpoint || outcome.error) return;
  if (outcome.request.sessionId !== undefined) state.sessions.remember(outcome.request.sessionId, endpoint.id);
}

/**
 * Marks an answer its caller left (recorded as cancelled, 408) or the restart cut short (503);
 * returns whether either happened.
 */
export function markEndedEarly(outcome: GenerationOutcome, prepared: PreparedInference): boolean {
  const { call } = prepared;
  if (call.signal.aborted) {
    outcome.cancelled = true;
    outcome.error = clientAbortedError();
    return true;
  }
  if (call.restart.aborted) {
    outcome.error = cutByRestartError();
    return true;
  }
  return false;
}

/**
 * The error a request no endpoint answered is recorded with: cut short by a restart, ended by its
 * caller leaving (also marked cancelled), or the endpoints' failures (each told to the call's observer
 * and recorded as a sample).
 */
export function unansweredError(samples: SampleRecorder, outcome: GenerationOutcome, failed: AllAttemptsFailed, prepared: PreparedInference): GatewayError {
  reportAttempts(prepared.call.observer, failed.failures);
  recordFailedAttempts(samples, failed.failures, prepared.call);
  if (markEndedEarly(outcome, prepared) && outcome.error) return outcome.error;
  return failuresToError(failed.failures);
}
