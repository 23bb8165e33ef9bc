import { priceAnswer } from '../../billing/settlement.js';
import { collectReply } from '../../core/collect.js';
import type { CoreEvent, CoreUsage } from '../../core/events.js';
import { GatewayError } from '../../core/errors.js';
import type { DecodedOperation } from '../../core/decoded-operation.js';
import { requestFacts } from '../../core/request-facts.js';
import type { DecisionCall } from '../../dialects/systemone/decode.js';
import { encodeDecisionReply, readAnswers, type ReadAnswers } from '../../dialects/systemone/encode-reply.js';
import type { Answer } from '../executor.js';
import type { OperationBinding } from '../operation-binding.js';

/** Every question's reply read as its typed answer, with the counts summed over the calls. */
export interface DecisionResult {
  read: ReadAnswers;
  usage: CoreUsage | undefined;
}

/**
 * Typed decisions: one upstream call per question, all on one endpoint. The hold covers every call
 * at the largest prompt; the first question is routed with failover and the others follow it to the
 * endpoint that answered, so one price list settles the summed usage. A question no endpoint answers
 * fails the request; one whose reply names none of its options refuses it as a provider error
 * (502) charging nothing: every question is answered or none.
 */
export const decisionsOperation: OperationBinding<DecisionCall, DecisionResult> = {
  prepareOptions: (call) => ({
    calls: call.questions.length,
    recordedPromptTokens: call.questions.reduce((sum, entry) => sum + requestFacts(entry.request).promptTokens, 0),
  }),
  async execute(executor, call, plan, signal) {
    const [first, ...rest] = call.questions;
    if (!first) throw new GatewayError('invalid_request', 'questions: at least one question is required');
    const head = await executor.complete(first.request, plan, signal);
    const pinned = { attempts: [head.attempt] };
    const tail = await Promise.allSettled(rest.map((entry) => executor.complete(entry.request, pinned, signal)));
    const collected = [head, ...tail.map(settledAnswer)].map((answer) => collectReply(answer.events));
    const read = readAnswers(call.questions.map((entry, index) => ({ question: entry.question, reply: collected[index] ?? collectReply([]) })));
    return { ...head, events: { read, usage: summedUsage(collected.map((entry) => entry.usage)) } };
  },
  recorded: (result) => ({ ...(result.usage && { usage: result.usage }), finishReason: 'stop' }),
  price: (pricing, _result, outcome, now) => priceAnswer(pricing, outcome, now),
  refuse: ({ read }, meta) => (read.ok ? undefined : unansweredError(read.unanswered, meta.provider)),
  encode: ({ read, usage }, meta, _call, cost) =>
    encodeDecisionReply(read.ok ? read.answers : {}, { id: meta.id, model: meta.model, provider: meta.provider }, { usage, cost }),
};

/** The request the planner routes for a decision call: its largest question. */
export function decisionOperation(call: DecisionCall): DecodedOperation<DecisionCall> {
  const sized = call.questions.map((entry) => ({ request: entry.request, facts: requestFacts(entry.request) }));
  const largest = sized.reduce((max, entry) => (entry.facts.promptTokens > max.facts.promptTokens ? entry : max));
  return { request: largest.request, facts: largest.facts, ask: call };
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
