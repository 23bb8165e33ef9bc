import { toEnvelope, type GatewayError } from '../core/errors.js';
import { failureToError } from '../core/failure-error.js';
import { chargeNothing } from '../billing/settlement.js';
import { internalError } from './answer-stream.js';
import { attemptSignal } from './call.js';
import { CallState, unrecordedError } from './call-state.js';
import { recordAnswer } from './endpoint-samples.js';
import { AllAttemptsFailed, type Answer } from './executor.js';
import type { OperationBinding, OperationStreamBinding } from './operation-binding.js';
import type { PreparedInference } from './prepare.js';
import { cutByRestartError } from './restart.js';
import type { InferenceServices } from './services.js';
import type { OperationStreamEvent } from '../upstream/operation-adapter.js';
import type { StreamOutput } from './stream-output.js';

/**
 * Answers a call that is not a conversation as an event stream into `output` (image generation with `stream`):
 * failover until an attempt commits, then its pieces as they come, then, once the result is
 * settled at the serving endpoint's prices, the result with its charge. A result the operation
 * refuses, or a stream broken before its result, ends in the stream's error and charges nothing; a
 * caller who leaves ends it, recorded as cancelled.
 */
export async function answerOperationStream<Ask, Result, Piece>(
  services: InferenceServices,
  prepared: PreparedInference,
  binding: OperationBinding<Ask, Result, Piece>,
  stream: OperationStreamBinding<Ask, Result, Piece>,
  ask: Ask,
  output: StreamOutput,
): Promise<void> {
  const state = new CallState(prepared, true);
  const upstream = attemptSignal(prepared.call);
  const { observer } = prepared.call;
  let opened = false;
  try {
    let answer: Answer<AsyncGenerator<OperationStreamEvent<Result, Piece>>>;
    try {
      answer = await stream.execute(services.executor, ask, prepared.plan, upstream.signal);
    } catch (error) {
      const refusal = error instanceof AllAttemptsFailed ? state.unanswered(services.samples, error)
        : state.failedBeforeAnswer(prepared.call.restart.aborted ? cutByRestartError() : internalError(services, error));
      await state.settle(services);
      output.refuse({ status: refusal.status, headers: { ...refusal.headers }, body: toEnvelope(refusal) }, stream.fail(refusal));
      return;
    }
    state.answered(services.samples, answer);
    const meta = state.replyMeta(answer.attempt);
    observer.streamOpened();
    opened = true;
    output.open({ 'x-provider-name': meta.provider });
    let result: Result | undefined;
    let failure: GatewayError | undefined;
    for await (const event of answer.events) {
      if (prepared.call.signal.aborted) break;
      if (event.type === 'error') {
        failure = failureToError(event.failure, meta.provider);
        break;
      }
      state.contentAt(state.outcome.firstContentAt ?? Date.now());
      if (event.type === 'piece') await output.write(stream.piece(event.piece, meta, ask));
      else result = event.result;
    }
    const endedAt = Date.now();
    const cut = state.endedEarly();
    const refusal = failure ?? (result === undefined || cut ? undefined : (stream.refuse ?? binding.refuse)?.(result, meta));
    // nothing was delivered that the caller can keep: a refused result, or pictures never completed
    if (refusal) state.failed(refusal, true);
    recordAnswer(services.samples, {
      endpointId: answer.attempt.endpoint.id,
      startedAt: answer.startedAt,
      endedAt,
      tokenStream: false,
      end: cut ? 'cut' : refusal || result === undefined ? 'failed' : 'complete',
      render: refusal || result === undefined ? undefined : binding.rendered?.(result),
    });
    const recorded = result === undefined ? { finishReason: null } : binding.recorded(result, ask);
    state.endedWith({ ...recorded, finishReason: refusal ? 'error' : cut ? null : recorded.finishReason });
    const settled = result;
    const cost = await state.settle(services, settled === undefined || refusal ? chargeNothing : (pricing, outcome, now) => binding.price(pricing, settled, outcome, now, ask));
    if (state.cancelled) return;
    if (state.error || settled === undefined || cost === undefined) {
      await output.write(stream.fail(state.error ?? unrecordedError()));
      return;
    }
    await output.write(stream.result(settled, meta, ask, cost));
  } finally {
    upstream.release();
    if (opened) observer.streamClosed(state.firstContentMs);
  }
}
