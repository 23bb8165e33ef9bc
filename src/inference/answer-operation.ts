import { attemptSignal } from './call.js';
import type { OperationBinding } from './operation-binding.js';
import { answeredBy, recordServed, replyMeta, startOutcome } from './outcome.js';
import type { PreparedInference } from './prepare.js';
import { servedReply, type WholeReply } from './reply.js';
import { settleOrRefuse, settleUnanswered } from './settlement.js';
import { recordAnswer } from './endpoint-samples.js';
import type { InferenceServices } from './services.js';

/**
 * Answers a call that is not a conversation (embeddings, rerank, typed decisions) on the shared
 * seams: the operation's call with failover, settlement of what it measured at the serving
 * endpoint's prices with a generation record, then the JSON reply. A result the operation refuses
 * is recorded with its counts and charged nothing.
 */
export async function answerOperation<Ask, Result>(
  services: InferenceServices,
  prepared: PreparedInference,
  binding: OperationBinding<Ask, Result>,
  ask: Ask,
): Promise<WholeReply> {
  const outcome = startOutcome(prepared, false);
  const upstream = attemptSignal(prepared.call);
  let answer;
  try {
    answer = await binding.execute(services.executor, ask, prepared.plan, upstream.signal);
  } catch (error) {
    return settleUnanswered(services, prepared, outcome, error);
  } finally {
    upstream.release();
  }
  const result = answer.events;
  const recorded = binding.recorded(result);
  answeredBy(services.samples, outcome, prepared, answer);
  outcome.firstContentAt = Date.now();
  outcome.finishReason = recorded.finishReason;
  if (recorded.usage) outcome.usage = recorded.usage;
  if (recorded.upstreamId) outcome.upstreamId = recorded.upstreamId;
  const meta = replyMeta(prepared, answer.attempt);
  const refusal = binding.refuse?.(result, meta);
  // A result the operation refuses is the provider's error (502): the endpoint failed this attempt.
  recordAnswer(services.samples, {
    endpointId: answer.attempt.endpoint.id,
    startedAt: answer.startedAt,
    endedAt: outcome.firstContentAt,
    tokenStream: false,
    end: refusal ? 'failed' : 'complete',
  });
  if (refusal) {
    outcome.error = refusal;
    outcome.refused = true;
    outcome.finishReason = 'error';
  }
  const cost = await settleOrRefuse(services, prepared, outcome, (pricing, settled, now) => binding.price(pricing, result, settled, now));
  if (refusal) throw refusal;
  recordServed(services.state, outcome);
  return servedReply(meta.provider, binding.encode(result, meta, ask, cost));
}
