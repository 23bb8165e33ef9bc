import type { FastifyReply } from 'fastify';
import { collectReply } from '../../core/collect.js';
import { AllAttemptsFailed } from '../../core/executor.js';
import { failuresToError } from '../../core/failure-error.js';
import { settleGeneration, type GenerationOutcome } from '../../core/accounting.js';
import type { Services } from '../services.js';
import type { DialectBinding } from './dialect-binding.js';
import type { PreparedInference } from './prepare.js';
import { clientSignal } from './client-signal.js';

/** Runs a non-streamed request: the whole reply is read (failing over on any failure), settled, then sent. */
export async function runComplete(
  services: Services,
  prepared: PreparedInference,
  reply: FastifyReply,
  dialect: DialectBinding,
): Promise<FastifyReply> {
  const outcome: GenerationOutcome = {
    generationId: prepared.generationId,
    key: prepared.key,
    request: prepared.request,
    estimatedPromptTokens: prepared.promptTokens,
    streamed: false,
    startedAt: prepared.startedAt,
  };
  let answer;
  try {
    answer = await services.executor.complete(prepared.request, prepared.plan, clientSignal(reply));
  } catch (error) {
    if (!(error instanceof AllAttemptsFailed)) {
      await services.ledger.release(prepared.hold);
      throw error;
    }
    outcome.error = failuresToError(error.failures);
    await settleGeneration(services.ledger, prepared.hold, outcome);
    throw outcome.error;
  }
  const collected = collectReply(answer.events);
  outcome.attempt = answer.attempt;
  outcome.firstContentAt = Date.now();
  outcome.usage = collected.usage;
  outcome.finishReason = collected.finish ?? null;
  outcome.nativeFinishReason = collected.nativeFinish;
  if (collected.upstreamId) outcome.upstreamId = collected.upstreamId;
  const cost = await settleGeneration(services.ledger, prepared.hold, outcome);
  const meta = {
    id: prepared.generationId,
    created: Math.floor(prepared.startedAt / 1000),
    model: answer.attempt.modelId,
    provider: answer.attempt.endpoint.provider.name,
  };
  return reply
    .header('x-provider-name', meta.provider)
    .send(dialect.encodeReply(collected, meta, { usage: collected.usage, cost }));
}
