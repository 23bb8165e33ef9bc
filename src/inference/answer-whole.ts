import { collectReply } from '../core/collect.js';
import type { CoreEvent } from '../core/events.js';
import type { GatewayError } from '../core/errors.js';
import { AnswerMeter } from '../core/answer-meter.js';
import { visibleToCaller } from '../core/caller-view.js';
import type { DialectBinding } from '../dialects/shared/dialect-binding.js';
import { attemptSignal } from './call.js';
import { CallState } from './call-state.js';
import type { PreparedInference } from './prepare.js';
import { servedReply, type WholeReply } from './reply.js';
import { recordAnswer } from './endpoint-samples.js';
import { ToolCallCheck } from './tool-call-check.js';
import { toolContractOf } from '../core/tool-contract.js';
import type { InferenceServices } from './services.js';

/**
 * Answers a non-streamed request: the whole reply is read (failing over on any failure), settled,
 * then handed back. A reply the dialect cannot carry is refused: recorded with its counts and
 * charged nothing. Failures are thrown as the caller's error once recorded.
 */
export async function answerWhole(services: InferenceServices, prepared: PreparedInference, dialect: DialectBinding): Promise<WholeReply> {
  const state = new CallState(prepared, false);
  const upstream = attemptSignal(prepared.call);
  let answer;
  try {
    answer = await services.executor.complete(prepared.request, prepared.plan, upstream.signal);
  } catch (error) {
    return state.settleUnanswered(services, error);
  } finally {
    upstream.release();
  }
  state.answered(services.samples, answer);
  const meter = new AnswerMeter();
  const toolCalls = ToolCallCheck.of(prepared.request);
  for (const event of answer.events) {
    meter.observe(event);
    toolCalls?.observe(event);
  }
  recordAnswer(services.samples, {
    endpointId: answer.attempt.endpoint.id,
    startedAt: answer.startedAt,
    endedAt: Date.now(),
    tokenStream: false,
    end: 'complete',
    toolCall: toolCalls?.outcome(toolContractOf(prepared.request) !== undefined),
  });
  const refusal = refusedOutput(dialect, answer.events);
  if (refusal) state.failed(refusal, true);
  await state.ended(meter, false);
  const cost = await state.settleOrRefuse(services);
  if (refusal) throw refusal;
  const collected = collectReply(answer.events.filter((event) => visibleToCaller(event, prepared.request)));
  const meta = state.replyMeta(answer.attempt);
  return servedReply(meta.provider, dialect.encodeReply(collected, meta, { usage: state.outcome.usage, cost }, prepared.request));
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
