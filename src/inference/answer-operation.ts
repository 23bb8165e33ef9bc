import { attemptSignal } from './call.js';
import type { OperationBinding } from './operation-binding.js';
import { CallState } from './call-state.js';
import type { PreparedInference } from './prepare.js';
import { servedReply, type WholeReply } from './reply.js';
import { recordAnswer } from './endpoint-samples.js';
import type { InferenceServices } from './services.js';

/**
 * Answers a call that is not a conversation (embeddings, rerank, typed decisions, images, transcription) on the shared
 * seams: the operation's call with failover, settlement of what it measured at the serving
 * endpoint's prices with a generation record, then the JSON reply. A result the operation refuses
 * is recorded with its counts and charged nothing.
 */
export async function answerOperation<Ask, Result, Piece>(
  services: InferenceServices,
  prepared: PreparedInference,
  binding: OperationBinding<Ask, Result, Piece>,
  ask: Ask,
): Promise<WholeReply> {
  const state = new CallState(prepared, false);
  const upstream = attemptSignal(prepared.call);
  let answer;
  try {
    answer = await binding.execute(services.executor, ask, prepared.plan, upstream.signal);
  } catch (error) {
    return state.settleUnanswered(services, error);
  } finally {
    upstream.release();
  }
  const result = answer.events;
  const recorded = binding.recorded(result, ask);
  state.answered(services.samples, answer);
  const answeredAt = Date.now();
  state.contentAt(answeredAt);
  const meta = state.replyMeta(answer.attempt);
  const refusal = binding.refuse?.(result, meta);
  // A result the operation refuses is the provider's error (502): the endpoint failed this attempt.
  recordAnswer(services.samples, {
    endpointId: answer.attempt.endpoint.id,
    startedAt: answer.startedAt,
    endedAt: answeredAt,
    tokenStream: false,
    end: refusal ? 'failed' : 'complete',
    render: refusal ? undefined : binding.rendered?.(result),
  });
  if (refusal) state.failed(refusal, true);
  state.endedWith({ ...recorded, finishReason: refusal ? 'error' : recorded.finishReason });
  const cost = await state.settleOrRefuse(services, (pricing, settled, now) => binding.price(pricing, result, settled, now, ask));
  if (refusal) throw refusal;
  return servedReply(meta.provider, binding.encode(result, meta, ask, cost));
}
