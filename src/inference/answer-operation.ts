import type { FastifyReply, FastifyRequest } from 'fastify';
import { computeOperationCost } from '../billing/operation-pricing.js';
import { AllAttemptsFailed, type Answer } from './executor.js';
import type { DecodedOperation } from '../core/operation.js';
import type { Services } from '../http/services.js';
import type { OperationBinding } from './operation-binding.js';
import { clientSignal } from '../http/inference/client-signal.js';
import { settleOrLog, unrecordedError } from './settlement.js';
import { prepareInference } from './prepare.js';
import { recordServed, replyMeta, startOutcome, unansweredError } from './outcome.js';

/**
 * Runs a non-conversation call (embeddings, rerank) on the shared seams: plan and hold, the
 * executor's failover over the operation's adapters, settlement of the measured units at the
 * serving endpoint's prices with a generation record, then the JSON reply.
 */
export async function runOperation<Body, Ask, Result>(
  services: Services,
  httpRequest: FastifyRequest,
  reply: FastifyReply,
  binding: OperationBinding<Body, Ask, Result>,
  decoded: DecodedOperation<Ask>,
): Promise<FastifyReply> {
  const prepared = await prepareInference(services, httpRequest, decoded.request, { facts: decoded.facts });
  const outcome = startOutcome(prepared, false);
  const signal = clientSignal(reply, services.restart);
  let answer: Answer<Result>;
  try {
    answer = await services.executor.unary(decoded.ask, prepared.plan, signal, binding.adapters);
  } catch (error) {
    if (!(error instanceof AllAttemptsFailed)) {
      await services.ledger.release(prepared.hold);
      throw error;
    }
    outcome.error = unansweredError(outcome, error, signal, services.restart);
    await settleOrLog(services, prepared.hold, outcome);
    throw outcome.error;
  }
  const usage = binding.usage(answer.events);
  outcome.attempt = answer.attempt;
  outcome.firstContentAt = Date.now();
  outcome.finishReason = null;
  if (usage.promptTokens !== undefined) outcome.usage = { promptTokens: usage.promptTokens };
  const upstreamId = binding.upstreamId(answer.events);
  if (upstreamId) outcome.upstreamId = upstreamId;
  const cost = await settleOrLog(services, prepared.hold, outcome, (pricing, _outcome, now) => computeOperationCost(pricing, usage, now));
  recordServed(services.state, outcome);
  if (cost === undefined) throw unrecordedError();
  const meta = replyMeta(prepared, answer.attempt);
  return reply.header('x-provider-name', meta.provider).send(binding.encode(answer.events, meta, decoded.ask, cost));
}
