import type { FinishReason, UpstreamFailure } from '../core/events.js';
import type { ErrorCode } from '../core/errors.js';
import { errorCodeFor } from '../core/failure-error.js';
import type { AttemptFailure } from '../core/plan.js';
import { streamThroughput, type EndpointSample, type SampleRecorder } from '../stats/endpoint-sample.js';
import type { RenderSample } from '../stats/render-sums.js';
import type { InferenceCall } from './call.js';

/** Provider answers that reject the request itself (spec 01: the caller's 4xx), not the endpoint's failure. */
const REQUEST_REJECTIONS: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['provider_rejected', 'context_length_exceeded', 'payload_too_large']);

/**
 * The sample of an attempt that failed before the answer committed: the endpoint's failure, except
 * a rejection of the request as malformed (not counted) and an answer in prose where `tool_choice`
 * required a call (the endpoint answered: counted as up, and as a failed tool call).
 */
export function failedAttemptSample(failure: UpstreamFailure): EndpointSample | undefined {
  if (failure.kind === 'contract') return { ok: true, toolCall: false };
  if (REQUEST_REJECTIONS.has(errorCodeFor(failure))) return undefined;
  return { ok: false };
}

/**
 * Records the attempts that failed before an answer (or before the request gave up). When the caller
 * left or the instance restarted, the last of them was cut by that, not by its endpoint: not counted.
 */
export function recordFailedAttempts(samples: SampleRecorder, failures: readonly AttemptFailure[], call: Pick<InferenceCall, 'signal' | 'restart'>): void {
  // most answers come from their first attempt: then nothing is read (reading the caller's signal makes it)
  if (failures.length === 0) return;
  const counted = call.signal.aborted || call.restart.aborted ? failures.length - 1 : failures.length;
  for (let index = 0; index < counted; index += 1) {
    const failed = failures[index];
    const sample = failed && failedAttemptSample(failed.failure);
    if (sample) samples.record(failed.attempt.endpoint.id, sample);
  }
}

/** How the answering attempt ended: whole, broken by its endpoint, or cut by the caller leaving or a restart. */
export type AnswerEnd = 'complete' | 'failed' | 'cut';

export interface AnsweredAttempt {
  endpointId: string;
  /** When the attempt was sent, and when its answer ended (epoch ms). */
  startedAt: number;
  endedAt: number;
  /** Token streams only: when the first content came. */
  firstContentAt?: number | undefined;
  /** A token stream (not a whole reply, not an audio relay): it has a first token, a throughput, a runaway verdict. */
  tokenStream: boolean;
  completionTokens?: number | undefined;
  finish?: FinishReason | null | undefined;
  end: AnswerEnd;
  toolCall?: boolean | undefined;
  /** Image generation: the delivered pictures' megapixels and sizes (a render timing sample once complete). */
  render?: Omit<RenderSample, 'seconds'> | undefined;
}

/** Records the attempt that answered: see EndpointSample for what each member means. */
export function recordAnswer(samples: SampleRecorder, answered: AnsweredAttempt): void {
  const { startedAt, endedAt, firstContentAt } = answered;
  const ttftSeconds = answered.tokenStream && firstContentAt !== undefined ? (firstContentAt - startedAt) / 1000 : undefined;
  if (answered.end !== 'complete') {
    samples.record(answered.endpointId, { ok: answered.end === 'cut' ? undefined : false, ttftSeconds });
    return;
  }
  const tokenStream = answered.tokenStream;
  const responseSeconds = (endedAt - startedAt) / 1000;
  samples.record(answered.endpointId, {
    ok: true,
    ttftSeconds,
    responseSeconds,
    tokensPerSecond: tokenStream && firstContentAt !== undefined ? streamThroughput(answered.completionTokens, endedAt - firstContentAt) : undefined,
    toolCall: answered.toolCall,
    runaway: tokenStream ? answered.finish === 'length' : undefined,
    render: answered.render && { ...answered.render, seconds: responseSeconds },
  });
}
