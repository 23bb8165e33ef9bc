import type { FastifyReply } from 'fastify';
import { collectReply } from '../core/collect.js';
import type { CoreEvent } from '../core/events.js';
import type { GatewayError } from '../core/errors.js';
import { AllAttemptsFailed } from './executor.js';
import { AnswerMeter } from '../core/answer-meter.js';
import { visibleToCaller } from '../core/caller-view.js';
import type { Services } from '../http/services.js';
import type { DialectBinding } from '../dialects/shared/dialect-binding.js';
import type { PreparedInference } from './prepare.js';
import { clientSignal } from '../http/inference/client-signal.js';
import { settleOrLog, unrecordedError } from './settlement.js';
import { closeOutcome, recordServed, replyMeta, startOutcome, unansweredError } from './outcome.js';

/**
 * Runs a non-streamed request: the whole reply is read (failing over on any failure), settled, then
 * sent. A reply the dialect cannot carry is refused: recorded with its counts and charged nothing.
 */
export async function runComplete(
  services: Services,
  prepared: PreparedInference,
  reply: FastifyReply,
  dialect: DialectBinding,
): Promise<FastifyReply> {
  const outcome = startOutcome(prepared, false);
  const signal = clientSignal(reply, services.restart);
  let answer;
  try {
    answer = await services.executor.complete(prepared.request, prepared.plan, signal);
  } catch (error) {
    if (!(error instanceof AllAttemptsFailed)) {
      await services.ledger.release(prepared.hold);
      throw error;
    }
    outcome.error = unansweredError(outcome, error, signal, services.restart);
    await settleOrLog(services, prepared.hold, outcome);
    throw outcome.error;
  }
  outcome.attempt = answer.attempt;
  const meter = new AnswerMeter();
  for (const event of answer.events) meter.observe(event);
  const refusal = refusedOutput(dialect, answer.events);
  if (refusal) {
    outcome.error = refusal;
    outcome.refused = true;
  }
  await closeOutcome(outcome, meter, false);
  const cost = await settleOrLog(services, prepared.hold, outcome);
  recordServed(services.state, outcome);
  if (cost === undefined) throw unrecordedError();
  if (refusal) throw refusal;
  const collected = collectReply(answer.events.filter((event) => visibleToCaller(event, prepared.request)));
  const meta = replyMeta(prepared, answer.attempt);
  return reply
    .header('x-provider-name', meta.provider)
    .send(dialect.encodeReply(collected, meta, { usage: outcome.usage, cost }, prepared.request));
}

/** The dialect's refusal of the first answer part it cannot carry, if any. */
function refusedOutput(dialect: DialectBinding, events: readonly CoreEvent[]): GatewayError | undefined {
  if (!dialect.refuseOutput) return undefined;
  for (const event of events) {
    const refusal = dialect.refuseOutput(event);
    if (refusal) return refusal;
  }
  return undefined;
}
