import type { CollectedReply } from '../../core/collect.js';
import type { ReplyAccounting } from '../shared/reply-meta.js';
import { typedAnswer } from './answers.js';
import type { Question } from './questions.js';
import { readDistribution } from './readout.js';

export interface AnsweredQuestion {
  question: Question;
  reply: CollectedReply;
}

/**
 * The typed-decision reply: `{id, model, provider, answers{key: answer}, usage{input_tokens,
 * output_tokens, cost}}`. A question whose answer named none of its options is left out of
 * `answers`; a count the endpoint did not report is left out of `usage`.
 */
export function encodeDecisionReply(
  answered: readonly AnsweredQuestion[],
  meta: { id: string; model: string; provider: string },
  accounting: ReplyAccounting,
): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const { question, reply } of answered) {
    const distribution = readDistribution(question.options, { text: reply.text, ...(reply.logprobs && { logprobs: reply.logprobs }) });
    if (distribution) answers[question.key] = typedAnswer(question, distribution);
  }
  const usage: Record<string, number> = {};
  if (accounting.usage?.promptTokens !== undefined) usage.input_tokens = accounting.usage.promptTokens;
  if (accounting.usage?.completionTokens !== undefined) usage.output_tokens = accounting.usage.completionTokens;
  usage.cost = accounting.cost;
  return { id: meta.id, model: meta.model, provider: meta.provider, answers, usage };
}
