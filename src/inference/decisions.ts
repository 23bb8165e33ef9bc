import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectReply } from '../core/collect.js';
import type { CoreEvent, CoreUsage } from '../core/events.js';
import { AllAttemptsFailed, type Answer } from './executor.js';
import { chargeNothing, settleGeneration } from '../billing/settlement.js';
import { GatewayError } from '../core/errors.js';
import { planHoldAmount } from '../core/planner/planner.js';
import { requestFacts } from '../core/request-facts.js';
import type { DecisionCall } from '../dialects/systemone/decode.js';
import { encodeDecisionReply, readAnswers } from '../dialects/systemone/encode-reply.js';
import type { Services } from '../http/services.js';
import { clientSignal } from '../http/inference/client-signal.js';
import { prepareInference } from './prepare.js';
import { recordServed, replyMeta, startOutcome, unansweredError as endpointsUnanswered } from './outcome.js';

/**
 * Runs a typed-decision request: one upstream call per question, all on one endpoint. The hold
 * covers every call at its largest prompt; the first question is routed with failover and the
 * others follow it to the endpoint that answered, so one price list settles the summed usage.
 * Any question that no endpoint answers, or whose reply names none of its options, fails the whole
 * request as a provider error (502), which is then charged nothing: every question is answered or none.
 */
export async function runDecisions(services: Services, httpRequest: FastifyRequest, reply: FastifyReply, call: DecisionCall): Promise<FastifyReply> {
  const calls = call.questions.map((entry) => ({ ...entry, promptTokens: requestFacts(entry.request).promptTokens }));
  const largest = calls.reduce((max, entry) => (entry.promptTokens > max.promptTokens ? entry : max));
  const prepared = await prepareInference(services, httpRequest, largest.request, {
    holdAmount: (plan) => planHoldAmount(plan) * BigInt(calls.length),
  });
  const outcome = { ...startOutcome(prepared, false), estimatedPromptTokens: calls.reduce((sum, entry) => sum + entry.promptTokens, 0) };
  const signal = clientSignal(reply);
  const [first, ...rest] = calls;
  let answers: Answer<CoreEvent[]>[];
  try {
    const head = await services.executor.complete(first?.request ?? largest.request, prepared.plan, signal);
    const pinned = { attempts: [head.attempt] };
    const tail = await Promise.allSettled(rest.map((entry) => services.executor.complete(entry.request, pinned, signal)));
    answers = [head, ...tail.map(settledAnswer)];
  } catch (error) {
    if (!(error instanceof AllAttemptsFailed)) {
      await services.ledger.release(prepared.hold);
      throw error;
    }
    outcome.error = endpointsUnanswered(outcome, error, signal, services.restart);
    await settleGeneration(services.ledger, prepared.hold, outcome);
    throw outcome.error;
  }
  const attempt = answers[0]?.attempt ?? prepared.plan.attempts[0];
  if (attempt) outcome.attempt = attempt;
  const collected = answers.map((answer) => collectReply(answer.events));
  const usage = summedUsage(collected.map((entry) => entry.usage));
  if (usage) outcome.usage = usage;
  const meta = attempt ? replyMeta(prepared, attempt) : undefined;
  const read = readAnswers(calls.map((entry, index) => ({ question: entry.question, reply: collected[index] ?? collectReply([]) })));
  if (!read.ok) {
    outcome.error = unansweredError(read.unanswered, meta?.provider ?? '');
    outcome.finishReason = 'error';
    await settleGeneration(services.ledger, prepared.hold, outcome, chargeNothing);
    throw outcome.error;
  }
  outcome.finishReason = 'stop';
  const cost = await settleGeneration(services.ledger, prepared.hold, outcome);
  recordServed(services.state, outcome);
  return reply
    .header('x-provider-name', meta?.provider ?? '')
    .send(encodeDecisionReply(read.answers, { id: prepared.generationId, model: meta?.model ?? '', provider: meta?.provider ?? '' }, { usage, cost }));
}

/** The provider error of a request some of whose questions got a reply naming none of their options. */
function unansweredError(keys: readonly string[], provider: string): GatewayError {
  const named = keys.map((key) => `"${key}"`).join(', ');
  const noun = keys.length === 1 ? 'question' : 'questions';
  return new GatewayError('provider_failed', `${provider} named none of the options of ${noun} ${named}; nothing was charged`, {
    metadata: { provider_name: provider, unanswered: [...keys] },
  });
}

function settledAnswer(result: PromiseSettledResult<Answer<CoreEvent[]>>): Answer<CoreEvent[]> {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/** Counts summed over the calls; a count any call left unreported stays unreported. */
export function summedUsage(usages: readonly (CoreUsage | undefined)[]): CoreUsage | undefined {
  const sum = (pick: (usage: CoreUsage) => number | undefined): number | undefined => {
    let total = 0;
    for (const usage of usages) {
      const value = usage ? pick(usage) : undefined;
      if (value === undefined) return undefined;
      total += value;
    }
    return total;
  };
  const usage: CoreUsage = {};
  const prompt = sum((entry) => entry.promptTokens);
  const completion = sum((entry) => entry.completionTokens);
  if (prompt !== undefined) usage.promptTokens = prompt;
  if (completion !== undefined) usage.completionTokens = completion;
  return Object.keys(usage).length > 0 ? usage : undefined;
}
